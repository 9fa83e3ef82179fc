/**
 * The failure taxonomy the engine acts on (`FailureKind`: transient, rate_limited, rejected,
 * auth_expired, unconfirmed): `NetworkFailure`, thrown from deep inside an adapter's flow, and the
 * readings that make one from a network's answer (its status, its error words, the wait it asked
 * for, a created id it left out). `asFailedResult` turns it into the engine's result at the top of
 * a flow; any other error is a bug of ours and goes on up, so the engine logs it instead of
 * retrying it quietly as "could not be reached".
 */
import type { FailureKind, PublishResult } from './adapter'
import type { NetworkAnswer } from './http'

export class NetworkFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly retryAfterSec?: number,
    /** A failure a retry by hand gets through once the user has acted on the message; default by kind. */
    readonly retryable?: boolean,
  ) {
    super(message)
    this.name = 'NetworkFailure'
  }
}

/**
 * An `unconfirmed` failure that came from the answer itself (unreadable, or success without the
 * id): the network may have acted, and can be asked (`checkStatus` with `unconfirmed`) before
 * anything else; the result says so with `reconcile`.
 */
export class UnconfirmedAnswer extends NetworkFailure {
  constructor(message: string) {
    super('unconfirmed', message)
    this.name = 'UnconfirmedAnswer'
  }
}

/** The words of an error object a network sent (in its own style), if the body carries one. */
export function errorWords(body: unknown): string | null {
  if (body === null || typeof body !== 'object') return null
  const b = body as Record<string, any>
  const candidates = [
    b.error?.message,
    typeof b.error === 'string' ? (typeof b.message === 'string' ? `${b.error}: ${b.message}` : b.error) : null,
    b.errors?.[0]?.message,
    b.description,
    b.detail,
    b.message,
  ]
  const found = candidates.find((c) => typeof c === 'string' && c.trim() !== '')
  return typeof found === 'string' ? found.trim().slice(0, 200) : null
}

/**
 * The id of what a network says it created: a non-empty string or a number. A success answer
 * without one (an error object sent with 200, a body of another shape) cannot tell whether the
 * thing was made: `unconfirmed`, in the network's own words when it sent an error object.
 */
export function createdId(value: unknown, network: string, body: unknown, what = 'post'): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value === 'string' && value.trim() !== '') return value
  const words = errorWords(body)
  throw new UnconfirmedAnswer(
    words
      ? `${network} answered success carrying an error ("${words}") and no ${what} id, so whether it acted is unknown.`
      : `${network} answered success without the ${what} id, so whether it acted is unknown.`,
  )
}

/** The failure class of an HTTP status when the body says nothing more specific. */
export function kindOfStatus(status: number): FailureKind {
  if (status === 401) return 'auth_expired'
  if (status === 429) return 'rate_limited'
  if (status >= 500 || status === 408) return 'transient'
  return 'rejected'
}

/**
 * Seconds the network asked us to wait, from whichever header it uses: `Retry-After` (seconds or
 * an HTTP date), `X-RateLimit-Reset-After` (seconds), `x-rate-limit-reset` / `X-RateLimit-Reset`
 * (epoch seconds, or an ISO time as the federated network sends), `RateLimit-Reset` (seconds).
 */
export function retryAfterSec(headers: Headers, now: Date): number | undefined {
  const nowSec = now.getTime() / 1000
  const positive = (n: number) => (Number.isFinite(n) && n >= 0 ? Math.ceil(n) : undefined)
  const retryAfter = headers.get('retry-after')
  if (retryAfter) {
    const seconds = Number(retryAfter)
    if (!Number.isNaN(seconds)) return positive(seconds)
    const at = Date.parse(retryAfter)
    if (!Number.isNaN(at)) return positive(at / 1000 - nowSec)
  }
  const resetAfter = headers.get('x-ratelimit-reset-after')
  if (resetAfter) return positive(Number(resetAfter))
  const reset = headers.get('x-rate-limit-reset') ?? headers.get('x-ratelimit-reset')
  if (reset) {
    const epoch = Number(reset)
    if (!Number.isNaN(epoch)) return positive(epoch > 1e9 ? epoch - nowSec : epoch)
    const at = Date.parse(reset)
    if (!Number.isNaN(at)) return positive(at / 1000 - nowSec)
  }
  const ratelimitReset = headers.get('ratelimit-reset')
  if (ratelimitReset) {
    const n = Number(ratelimitReset)
    return positive(n > 1e9 ? n - nowSec : n)
  }
  return undefined
}

/** An answer that is not a success, as a failure: its class from the status, its words from the network. */
export function failureOf(
  answer: NetworkAnswer,
  network: string,
  reason: string | null | undefined,
  now: Date,
): NetworkFailure {
  const kind = kindOfStatus(answer.status)
  const words = reason?.trim() ? reason.trim() : `HTTP ${answer.status}`
  return new NetworkFailure(
    kind,
    `${network}: ${words}`,
    kind === 'rate_limited' || kind === 'transient' ? retryAfterSec(answer.headers, now) : undefined,
  )
}

/**
 * The engine's result for what an adapter step threw: a `NetworkFailure` becomes the failed result
 * of its kind. Anything else is not a network's answer but a bug of ours, so it is thrown again
 * untouched. (`_network` is no longer needed; callers outside the adapters still pass it.)
 */
export function asFailedResult(err: unknown): Extract<PublishResult, { status: 'failed' }> {
  if (!(err instanceof NetworkFailure)) throw err
  return {
    status: 'failed',
    kind: err.kind,
    message: err.message,
    ...(err.retryAfterSec !== undefined ? { retryAfterSec: err.retryAfterSec } : {}),
    ...(err.retryable !== undefined ? { retryable: err.retryable } : {}),
    ...(err instanceof UnconfirmedAnswer ? { reconcile: true } : {}),
  }
}
