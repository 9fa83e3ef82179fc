/**
 * Sign-in throttling with the API's own rate limiter: attempts per client IP, and attempts per
 * account (keyed by the normalized email, known or not, so a locked account and an unknown email look
 * the same). Past the per-account limit the account is locked until its window ends, and the page says
 * how long that is. With REDIS_URL (or Upstash) the counts are in that Redis, shared by every instance;
 * when it cannot answer, the sign-in buckets refuse (`whenUnavailable: 'refuse'`), so an outage never
 * lets a password guesser through uncounted: that refusal is 503 (our store is down), not 429 (the
 * visitor's own limit).
 */
import type { Context } from 'hono'
import type { AppEnv } from '../http/context'
import { sha256Hex } from '../lib/crypto'
import { normalizeEmail } from '../domain/people'
import type { RateLimitDecision } from '../infra/ratelimit/types'

export interface SignInRefusal {
  /** 429 past a limit; 503 while the limiter's store does not answer (nothing was counted). */
  status: 429 | 503
  /** Seconds until another attempt is counted. */
  retryAfterSec: number
  message: string
}

const waitText = (sec: number) => (sec >= 120 ? `${Math.ceil(sec / 60)} minutes` : `${sec} seconds`)

/** Counts one attempt against the IP and (when given) the account; a refusal when either is spent. */
export async function countSignInAttempt(c: Context<AppEnv>, email?: string): Promise<SignInRefusal | null> {
  const { rateLimiter, clock } = c.var.deps
  const wait = (resetAt: number) => Math.max(1, Math.ceil((resetAt - clock.now().getTime()) / 1000) + 1)
  const paused = (decision: RateLimitDecision): SignInRefusal => {
    const sec = wait(decision.resetAt)
    return {
      status: 503,
      retryAfterSec: sec,
      message: `Sign-in and sign-up are paused for a moment: the service that counts attempts is not answering. Try again in ${waitText(sec)}.`,
    }
  }
  const byIp = await rateLimiter.check('signInIp', c.var.clientIp)
  if (!byIp.allowed && byIp.unavailable) return paused(byIp)
  if (!byIp.allowed) {
    const sec = wait(byIp.resetAt)
    return {
      status: 429,
      retryAfterSec: sec,
      message: `Too many attempts from your network. Try again in ${waitText(sec)}.`,
    }
  }
  if (email === undefined) return null
  // The limiter's key is a hash: no address in Redis keys.
  const byAccount = await rateLimiter.check('signInAccount', await sha256Hex(normalizeEmail(email)))
  if (!byAccount.allowed && byAccount.unavailable) return paused(byAccount)
  if (!byAccount.allowed) {
    const sec = wait(byAccount.resetAt)
    return {
      status: 429,
      retryAfterSec: sec,
      message: `Too many sign-in attempts for this account: it is locked for now. Try again in ${waitText(sec)}.`,
    }
  }
  return null
}
