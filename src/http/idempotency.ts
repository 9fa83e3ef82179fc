import type { Context, MiddlewareHandler, Next } from 'hono'
import { sha256Hex } from '../lib/crypto'
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyClaim,
  type IdempotencyRecord,
  idempotencyKeyTaken,
  readIdempotencyRecord,
  releaseIdempotencyKey,
} from '../services/idempotency'
import type { AppEnv } from './context'
import { AppError } from '../domain/errors'

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/
const WAIT_FOR_FIRST_MS = 10_000
const POLL_MS = 50

/**
 * `Idempotency-Key` on a POST: the first successful answer is stored and replayed for 24 h
 * (with `Idempotent-Replayed: true`); the same key with another method, path or body is 422
 * `idempotency_key_reused`; a concurrent request with the key waits for the first one's answer.
 * A request that fails gives its key back so it can be corrected and retried.
 *
 * An operation that stores its answer in its own write's transaction (`answerInTransaction`: it
 * reads the key from `c.var.idempotency`) claims nothing first; when it was refused, the key's
 * record, if one was stored meanwhile, answers instead (its replay, or why the key cannot be used).
 */
export const idempotent =
  (options: { answerInTransaction?: boolean } = {}): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const key = c.req.header('idempotency-key')
    if (key === undefined || c.req.method !== 'POST') return next()
    if (!KEY_PATTERN.test(key)) {
      throw new AppError('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', {
        details: [{ path: 'header.Idempotency-Key' }],
      })
    }
    const fingerprint = await sha256Hex(`${c.req.method} ${c.req.path}\n${await c.req.text()}`)
    if (options.answerInTransaction) return answeredInTransaction(c, next, key, fingerprint)
    return answeredAfter(c, next, key, fingerprint)
  }

/** Claims the key (`pending`) before the work, stores the answer after it, or gives the key back. */
async function answeredAfter(c: Context<AppEnv>, next: Next, key: string, fingerprint: string) {
  const { deps, auth } = c.var
  const claim = await untilSettled(() =>
    claimIdempotencyKey(deps.db, auth.workspaceId, key, fingerprint, deps.clock.now()),
  )
  if (claim.kind !== 'claimed') return answerFromRecord(c, claim)
  try {
    await next()
  } catch (err) {
    await releaseIdempotencyKey(deps.db, auth.workspaceId, key)
    throw err
  }
  if (c.res.status === 200)
    await completeIdempotencyKey(deps.db, auth.workspaceId, key, 200, await c.res.clone().json(), deps.clock.now())
  else await releaseIdempotencyKey(deps.db, auth.workspaceId, key)
}

/** The operation stores its answer with its write; a refusal is answered by the key's record if it has one. */
async function answeredInTransaction(c: Context<AppEnv>, next: Next, key: string, fingerprint: string) {
  const { deps, auth } = c.var
  c.set('idempotency', { key, fingerprint })
  await next()
  if (c.res.status === 200) return
  const record = await untilSettled(() =>
    readIdempotencyRecord(deps.db, auth.workspaceId, key, fingerprint, deps.clock.now()),
  )
  if (record.kind === 'none') return
  c.res = answerFromRecord(c, record)
}

/** Asks `read` again while the key's first request is still running, for at most WAIT_FOR_FIRST_MS. */
async function untilSettled<T extends IdempotencyClaim | IdempotencyRecord>(read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS
  for (;;) {
    const outcome = await read()
    if (outcome.kind !== 'in_progress' || Date.now() > deadline) return outcome
    await new Promise((r) => setTimeout(r, POLL_MS))
  }
}

/** The answer a key's record gives: its first answer replayed, or the error saying why the key cannot be used. */
function answerFromRecord(
  c: Context<AppEnv>,
  record: Exclude<IdempotencyClaim | IdempotencyRecord, { kind: 'claimed' } | { kind: 'none' }>,
): Response {
  if (record.kind === 'reused') {
    throw new AppError(
      'idempotency_key_reused',
      'This Idempotency-Key was used with a different request; use a new key for a new request.',
      { details: [{ path: 'header.Idempotency-Key' }] },
    )
  }
  if (record.kind === 'in_progress') throw idempotencyKeyTaken()
  return c.json(record.body as object, record.status as 200, { 'Idempotent-Replayed': 'true' })
}
