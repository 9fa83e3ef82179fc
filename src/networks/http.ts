/**
 * What every adapter needs to speak HTTP to a network, imported from here: one bounded request
 * (`request`) and how its answer is read (a success that is not JSON is never half-read), and
 * `joinUrl`. The rest is re-exported from the files that hold it: deadlines (http-deadlines.ts),
 * the failure taxonomy the engine acts on and `asFailedResult` (network-failure.ts), our media's
 * bytes (media-download.ts), and credential fields and token expiry (credential-fields.ts).
 * Adapters throw `NetworkFailure` from deep inside a flow and turn it into a result at the top, so
 * each network file reads as its documented steps.
 */
import { deadlineOf } from './http-deadlines'
import { NetworkFailure, UnconfirmedAnswer } from './network-failure'
import { OutboundRefused } from './outbound'

export * from './credential-fields'
export * from './http-deadlines'
export * from './media-download'
export * from './network-failure'

/** "30 s", "1.5 s": a deadline in words. */
const inSeconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`

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

/** Joins an origin (possibly with a path) and a path without doubling or dropping the slash. */
export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
