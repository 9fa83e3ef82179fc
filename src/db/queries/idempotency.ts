/** Queries of Idempotency-Key records: one row per (workspace, key), `pending` until the first answer is stored. */
import { and, eq, type SQL, sql } from 'drizzle-orm'
import { idempotencyKeys } from '../schema'
import type { DbOrTx } from '../types'

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect
export type NewIdempotencyKeyRow = typeof idempotencyKeys.$inferInsert

const keyOf = (workspaceId: string, key: string) =>
  and(eq(idempotencyKeys.workspaceId, workspaceId), eq(idempotencyKeys.key, key))

/**
 * Inserts a `pending` record unless the key is taken by a record that has not expired at `now`
 * (an expired one is replaced), in one statement; whether it wrote it.
 */
export async function claimPendingIdempotencyKey(
  db: DbOrTx,
  values: { workspaceId: string; key: string; fingerprint: string; createdAt: Date; expiresAt: Date },
  now: Date,
): Promise<boolean> {
  const result = await db.execute(insertRecordUnlessTakenStatement({ ...values, state: 'pending' }, now))
  return (result as unknown as { rows: unknown[] }).rows.length > 0
}

export async function findIdempotencyKey(
  db: DbOrTx,
  workspaceId: string,
  key: string,
): Promise<IdempotencyKeyRow | null> {
  const [row] = await db.select().from(idempotencyKeys).where(keyOf(workspaceId, key))
  return row ?? null
}

/** Stores the first answer to the key, replayed until `expiresAt`. */
export async function storeIdempotentAnswer(
  db: DbOrTx,
  workspaceId: string,
  key: string,
  answer: { status: number; body: unknown; expiresAt: Date },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'done', responseStatus: answer.status, responseBody: answer.body, expiresAt: answer.expiresAt })
    .where(keyOf(workspaceId, key))
}

/** Frees a key still `pending` (a stored answer is kept). */
export async function deletePendingIdempotencyKey(db: DbOrTx, workspaceId: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.workspaceId, workspaceId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.state, 'pending'),
      ),
    )
}

/** A record as `insertRecordUnlessTakenStatement` writes it: every column given, none left to its default. */
export type IdempotencyKeyRecord = NewIdempotencyKeyRow & { state: string; createdAt: Date }

/**
 * The statement that inserts a key's record unless the key is taken by a record that has not
 * expired at `now` (an expired one is replaced); it answers one row when it wrote the record. On its
 * own it claims a key (`pending`); within the write an answer reports, it stores that answer so both
 * commit together (posts.ts `insertPostWithTargets`). One row, so each value is a parameter of its
 * own: the answer (kilobytes of JSON) is parsed once, not first as a string inside a JSON array.
 */
export function insertRecordUnlessTakenStatement(record: IdempotencyKeyRecord, now: Date): SQL {
  const body =
    record.responseBody === undefined || record.responseBody === null ? null : JSON.stringify(record.responseBody)
  return sql`insert into ${idempotencyKeys}
      (workspace_id, key, fingerprint, state, response_status, response_body, created_at, expires_at)
    values (${record.workspaceId}, ${record.key}, ${record.fingerprint}, ${record.state},
      ${record.responseStatus ?? null}::integer, ${body}::jsonb, ${record.createdAt.toISOString()}::timestamptz,
      ${record.expiresAt.toISOString()}::timestamptz)
    on conflict (workspace_id, key) do update set fingerprint = excluded.fingerprint, state = excluded.state,
      response_status = excluded.response_status, response_body = excluded.response_body,
      created_at = excluded.created_at, expires_at = excluded.expires_at
    where ${idempotencyKeys.expiresAt} < ${now.toISOString()}::timestamptz
    returning 1`
}
