import {
  claimPendingIdempotencyKey,
  deletePendingIdempotencyKey,
  findIdempotencyKey,
  type IdempotencyKeyRecord,
  storeIdempotentAnswer,
} from '../db/queries/idempotency'
import type { Db } from '../db/types'
import { AppError } from '../domain/errors'

/** How long the first answer to a key is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
/** A request that died holding its key (an isolate killed mid-request) frees it after this. */
export const IDEMPOTENCY_PENDING_TTL_MS = 60 * 1000

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'reused' }
  | { kind: 'in_progress' }

/**
 * Takes a key for one request: the first caller claims it (a `pending` row); a later caller with
 * the same fingerprint gets the stored answer, or learns the first is still running; a different
 * fingerprint is a reuse. An expired record is replaced.
 */
export async function claimIdempotencyKey(
  db: Db,
  workspaceId: string,
  key: string,
  fingerprint: string,
  now: Date,
): Promise<IdempotencyClaim> {
  // One round trip: a new key, or an expired record replaced.
  const claimed = await claimPendingIdempotencyKey(
    db,
    { workspaceId, key, fingerprint, createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_PENDING_TTL_MS) },
    now,
  )
  if (claimed) return { kind: 'claimed' }
  const record = await readIdempotencyRecord(db, workspaceId, key, fingerprint, now)
  // Gone (or expired) since the insert found it: claim again.
  return record.kind === 'none' ? claimIdempotencyKey(db, workspaceId, key, fingerprint, now) : record
}

export async function completeIdempotencyKey(
  db: Db,
  workspaceId: string,
  key: string,
  status: number,
  body: unknown,
  now: Date,
): Promise<void> {
  await storeIdempotentAnswer(db, workspaceId, key, {
    status,
    body,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  })
}

/** A request that did not succeed gives its key back, so the caller can fix the request and retry with it. */
export async function releaseIdempotencyKey(db: Db, workspaceId: string, key: string): Promise<void> {
  await deletePendingIdempotencyKey(db, workspaceId, key)
}

/**
 * An Idempotency-Key of an operation that stores its first answer in the transaction of its own
 * write (creating a post): nothing is claimed before the work, and the answer commits with what it
 * reports, so no crash can leave the work done and the key free for a retry to do it again.
 */
export interface IdempotentWrite {
  key: string
  fingerprint: string
}

/** The key's record holding `body` as its first answer, and the time the key is judged taken at. */
export function firstAnswerRecord(
  workspaceId: string,
  write: IdempotentWrite,
  body: unknown,
  now: Date,
): { record: IdempotencyKeyRecord; now: Date } {
  const record: IdempotencyKeyRecord = {
    workspaceId,
    key: write.key,
    fingerprint: write.fingerprint,
    state: 'done',
    responseStatus: 200,
    responseBody: body,
    createdAt: now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  }
  return { record, now }
}

/** A write that found its key taken, and wrote nothing: the key's record has the answer (http/idempotency.ts). */
export function idempotencyKeyTaken(): AppError {
  return new AppError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still running; retry in a moment to get its answer.',
    { details: [{ path: 'header.Idempotency-Key' }] },
  )
}

export type IdempotencyRecord = Exclude<IdempotencyClaim, { kind: 'claimed' }> | { kind: 'none' }

/** What the key's record (not expired at `now`) says to a request with `fingerprint`; `none` without one. */
export async function readIdempotencyRecord(
  db: Db,
  workspaceId: string,
  key: string,
  fingerprint: string,
  now: Date,
): Promise<IdempotencyRecord> {
  const row = await findIdempotencyKey(db, workspaceId, key)
  if (!row || row.expiresAt.getTime() < now.getTime()) return { kind: 'none' }
  if (row.fingerprint !== fingerprint) return { kind: 'reused' }
  if (row.state === 'done') return { kind: 'replay', status: row.responseStatus ?? 200, body: row.responseBody }
  return { kind: 'in_progress' }
}
