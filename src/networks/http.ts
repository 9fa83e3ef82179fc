/**
 * What every adapter needs to speak HTTP to a network: one bounded request, the failure taxonomy
 * the engine acts on (`FailureKind`: transient, rate_limited, rejected, auth_expired, unconfirmed), the wait a
 * network asked for, and our media's bytes. Adapters throw `NetworkFailure` from deep inside a
 * flow and turn it into a result at the top (`asFailedResult`), so each network file reads as its
 * documented steps. Only a `NetworkFailure` becomes a result: any other error is a bug of ours and
 * goes on up, so the engine logs it instead of retrying it quietly as "could not be reached".
 */
import type { FailureKind, PublishMedia, PublishResult } from './adapter'
import { OutboundRefused } from './outbound'

/** A network call longer than this is abandoned as transient (well under the engine's 5-minute lease). */
export const DEFAULT_TIMEOUT_MS = 30_000
/** Uploading or downloading media bytes may take longer. */
export const MEDIA_TIMEOUT_MS = 120_000
/**
 * Reading our own media: the store must start answering within this (a stalled store is then
 * retried like a network failure, not waited on for the whole media bound); the bytes may take
 * up to `MEDIA_TIMEOUT_MS` in all.
 */
export const MEDIA_ANSWER_TIMEOUT_MS = 30_000

const DEADLINE_CAP = Symbol('networkDeadlineCapMs')
type CappedFetch = typeof fetch & { [DEADLINE_CAP]?: number }

/**
 * `fetchImpl` under a ceiling on every network call's deadline: `request` and `downloadMedia` wait
 * at most `capMs` for a call, whatever deadline it asked for (a test's short deadline, so a stalled
 * network costs no real 30 s). The cap travels with the fetch each adapter is given.
 */
export function withDeadlineCap(fetchImpl: typeof fetch, capMs: number): typeof fetch {
  const capped: CappedFetch = (input, init) => fetchImpl(input, init)
  capped[DEADLINE_CAP] = capMs
  return capped
}

/** The deadline of one call: the one asked for (default `DEFAULT_TIMEOUT_MS`), under the fetch's cap. */
export function deadlineOf(fetchImpl: typeof fetch, askedMs: number = DEFAULT_TIMEOUT_MS): number {
  const cap = (fetchImpl as CappedFetch)[DEADLINE_CAP]
  return cap !== undefined && cap < askedMs ? cap : askedMs
}

/** "30 s", "1.5 s": a deadline in words. */
const inSeconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`

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

export interface NetworkAnswer {
  status: number
  headers: Headers
  text: string
  /**
   * The body parsed as JSON, or null when it is empty. A body that is not JSON is null on a failure
   * answer (an error page says nothing more than its status), but reading it on a success throws a
   * `NetworkFailure` (`unreadableSuccess`): never a half-read success.
   */
  readonly body: any
}

export interface RequestOptions {
  method?: string
  headers?: Record<string, string>
  /** Sent as `application/json`. */
  json?: unknown
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string>
  /** Sent as is (FormData, bytes); its own content type unless `headers` says one. */
  body?: BodyInit
  timeoutMs?: number
}

/**
 * One HTTP request with a deadline. A dropped connection or a timeout throws a transient
 * `NetworkFailure` naming the network, never the URL (it may hold a token, as the messaging
 * network's does) nor the error's own text.
 */
export async function request(
  fetchImpl: typeof fetch,
  network: string,
  url: string,
  options: RequestOptions = {},
): Promise<NetworkAnswer> {
  const headers: Record<string, string> = { ...options.headers }
  let body: BodyInit | undefined = options.body
  if (options.json !== undefined) {
    body = JSON.stringify(options.json)
    headers['content-type'] ??= 'application/json'
  } else if (options.form !== undefined) {
    body = new URLSearchParams(options.form).toString()
    headers['content-type'] ??= 'application/x-www-form-urlencoded'
  }
  const timeoutMs = deadlineOf(fetchImpl, options.timeoutMs)
  let response: Response
  let text: string
  try {
    response = await fetchImpl(url, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
    })
    text = await response.text()
  } catch (err) {
    // An address the outbound guard refuses (outbound.ts) will not change on a retry.
    if (err instanceof OutboundRefused) throw new NetworkFailure('rejected', `${network}: ${err.message}`)
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')
    throw new NetworkFailure(
      'transient',
      timedOut ? `${network} did not answer within ${inSeconds(timeoutMs)}.` : `${network} could not be reached.`,
    )
  }
  let parsed: unknown = null
  let malformed = false
  if (text) {
    try {
      parsed = JSON.parse(text)
    } catch {
      malformed = true
    }
  }
  const { status } = response
  const method = (options.method ?? (body === undefined ? 'GET' : 'POST')).toUpperCase()
  return {
    status,
    headers: response.headers,
    text,
    get body() {
      if (malformed && status >= 200 && status < 300) throw unreadableSuccess(network, method, response.headers, text)
      return parsed
    },
  }
}

/** An HTML page where JSON was due: a gateway's, a captive portal's or a sign-in page. */
const isHtml = (headers: Headers, text: string): boolean =>
  /text\/html/i.test(headers.get('content-type') ?? '') || /^\s*<(!doctype|html)/i.test(text)

/**
 * A success answer whose body is not JSON. A read (GET, HEAD) made nothing: transient, asked again.
 * Any other call may have made what it asked for before its answer was lost, so it is `unconfirmed`:
 * the engine asks the network whether the post exists (checkStatus) rather than sending it again
 * blindly, or calling it a success.
 */
export function unreadableSuccess(network: string, method: string, headers: Headers, text: string): NetworkFailure {
  const what = isHtml(headers, text)
    ? `${network} answered with a web page (HTML) instead of JSON, as a gateway or sign-in page does`
    : `${network} sent an answer that is not JSON (cut off or garbled)`
  if (method === 'GET' || method === 'HEAD') return new NetworkFailure('transient', `${what}.`)
  return new UnconfirmedAnswer(`${what}, so whether it acted is unknown.`)
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

/**
 * The bytes of one of our media assets, for networks that take uploads (the asset's public URL
 * on our own storage). A missing object is not worth retrying; anything else is transient.
 */
export async function downloadMedia(fetchImpl: typeof fetch, media: PublishMedia): Promise<Uint8Array> {
  let response: Response
  const answer = new AbortController()
  const stalled = setTimeout(() => answer.abort(), MEDIA_ANSWER_TIMEOUT_MS)
  try {
    const signal = AbortSignal.any([AbortSignal.timeout(deadlineOf(fetchImpl, MEDIA_TIMEOUT_MS)), answer.signal])
    response = await fetchImpl(media.url, { signal }).finally(() => clearTimeout(stalled))
    if (response.status === 404 || response.status === 403) {
      throw new NetworkFailure('rejected', `Media ${media.id} is no longer in storage: upload it again.`)
    }
    if (!response.ok)
      throw new NetworkFailure(
        'transient',
        `Media ${media.id} could not be read from storage (HTTP ${response.status}).`,
      )
    return new Uint8Array(await response.arrayBuffer())
  } catch (err) {
    if (err instanceof NetworkFailure) throw err
    if (err instanceof OutboundRefused) throw new NetworkFailure('rejected', `Media ${media.id}: ${err.message}`)
    const why = answer.signal.aborted ? `: the store did not answer within ${MEDIA_ANSWER_TIMEOUT_MS / 1000} s` : ''
    throw new NetworkFailure('transient', `Media ${media.id} could not be read from storage${why}.`)
  }
}

/** A string credential, or a rejection naming the missing field (credentials are checked when stored). */
export function credential(credentials: Record<string, unknown>, field: string): string {
  const value = credentials[field]
  if (typeof value !== 'string' || value === '')
    throw new NetworkFailure('rejected', `The account's credentials lack ${field}: reconnect the account.`)
  return value
}

/** True when an ISO `expiresAt` credential is past, or within `marginSec` of now. */
export function expiresWithin(credentials: Record<string, unknown>, now: Date, marginSec: number): boolean {
  const at = typeof credentials.expiresAt === 'string' ? Date.parse(credentials.expiresAt) : NaN
  return !Number.isNaN(at) && at - now.getTime() <= marginSec * 1000
}

/** ISO time `seconds` from now: the `expiresAt` to store for a token that lasts `expires_in`. */
export const expiresAtFrom = (now: Date, seconds: number): string =>
  new Date(now.getTime() + seconds * 1000).toISOString()

/** Joins an origin (possibly with a path) and a path without doubling or dropping the slash. */
export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
