import type { MiddlewareHandler } from 'hono'
import { sha256Hex } from '../lib/crypto'
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../services/idempotency'
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
 */
export const idempotent = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const key = c.req.header('idempotency-key')
  if (key === undefined || c.req.method !== 'POST') return next()
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', {
      details: [{ path: 'header.Idempotency-Key' }],
    })
  }
  const { deps, auth } = c.var
  const fingerprint = await sha256Hex(`${c.req.method} ${c.req.path}\n${await c.req.text()}`)
  const deadline = Date.now() + WAIT_FOR_FIRST_MS
  for (;;) {
    const claim = await claimIdempotencyKey(deps.db, auth.workspaceId, key, fingerprint, deps.clock.now())
    if (claim.kind === 'reused') {
      throw new AppError(
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request; use a new key for a new request.',
        {
          details: [{ path: 'header.Idempotency-Key' }],
        },
      )
    }
    if (claim.kind === 'replay') {
      c.header('Idempotent-Replayed', 'true')
      return c.json(claim.body as object, claim.status as 200)
    }
    if (claim.kind === 'claimed') break
    if (Date.now() > deadline) {
      throw new AppError(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still running; retry in a moment to get its answer.',
        {
          details: [{ path: 'header.Idempotency-Key' }],
        },
      )
    }
    await new Promise((r) => setTimeout(r, POLL_MS))
  }
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
