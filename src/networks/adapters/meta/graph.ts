/**
 * The Graph API family (the photo network on both hosts, the page network, the text-thread
 * network): one error object `{ error: { message, type, code, error_subcode, error_user_msg,
 * is_transient, fbtrace_id } }` and one set of codes, as data. Throttling codes become
 * `rate_limited` with the wait from the usage headers; token codes `auth_expired`; the rest is
 * the network's own user-facing words.
 */
import type { FailureKind } from '../../adapter'
import { NetworkFailure, request, retryAfterSec, type NetworkAnswer, type RequestOptions } from '../../http'

/**
 * Graph error codes and what the engine does with them (Graph API error-handling reference;
 * Mixpost's throttle list).
 */
export const GRAPH_ERROR_KINDS: Array<{ codes: number[]; kind: FailureKind }> = [
  {
    codes: [4, 17, 32, 613, 80001, 80002, 80003, 80004, 80005, 80006, 80008, 80009, 80014, 1390008],
    kind: 'rate_limited',
  },
  { codes: [190, 102, 463, 467], kind: 'auth_expired' },
  { codes: [1, 2], kind: 'transient' },
]

/**
 * Subcodes that mean a daily publishing cap, whatever code they come with (the photo network sends
 * 9/2207042): a wait, not a refusal.
 */
export const GRAPH_DAILY_CAP_SUBCODES = [2207042]

export interface GraphError {
  message?: string
  type?: string
  code?: number
  error_subcode?: number
  error_user_title?: string
  error_user_msg?: string
  is_transient?: boolean
}

/** Minutes until access is regained, from `X-Business-Use-Case-Usage` (per business id, per type). */
function businessUseCaseWaitSec(headers: Headers): number | undefined {
  const raw = headers.get('x-business-use-case-usage')
  if (!raw) return undefined
  try {
    const usage = JSON.parse(raw) as Record<string, Array<{ estimated_time_to_regain_access?: number }>>
    const minutes = Object.values(usage)
      .flat()
      .map((u) => u.estimated_time_to_regain_access ?? 0)
    const max = Math.max(0, ...minutes)
    return max > 0 ? max * 60 : undefined
  } catch {
    return undefined
  }
}

/** The failure a Graph answer stands for; `network` names it in the message. */
export function graphFailure(answer: NetworkAnswer, network: string, now: Date): NetworkFailure {
  const error: GraphError = (answer.body && typeof answer.body === 'object' && answer.body.error) || {}
  const code = error.code
  const daily = error.error_subcode !== undefined && GRAPH_DAILY_CAP_SUBCODES.includes(error.error_subcode)
  let kind: FailureKind | undefined = daily
    ? 'rate_limited'
    : code === undefined
      ? undefined
      : GRAPH_ERROR_KINDS.find((k) => k.codes.includes(code))?.kind
  if (!kind && error.is_transient) kind = 'transient'
  kind ??=
    answer.status === 401
      ? 'auth_expired'
      : answer.status === 429
        ? 'rate_limited'
        : answer.status >= 500
          ? 'transient'
          : 'rejected'
  const words = error.error_user_msg || error.message || `HTTP ${answer.status}`
  const message = `${network}: ${words}${code !== undefined ? ` (code ${code}${error.error_subcode ? `/${error.error_subcode}` : ''})` : ''}`
  if (kind === 'rate_limited') {
    return new NetworkFailure(
      kind,
      message,
      retryAfterSec(answer.headers, now) ?? businessUseCaseWaitSec(answer.headers) ?? (daily ? 3600 : undefined),
    )
  }
  return new NetworkFailure(kind, message, kind === 'transient' ? retryAfterSec(answer.headers, now) : undefined)
}

/** One Graph call: the parsed body on success, a classified `NetworkFailure` otherwise. */
export async function graphCall(
  fetchImpl: typeof fetch,
  network: string,
  url: string,
  now: Date,
  options: RequestOptions = {},
): Promise<any> {
  const answer = await request(fetchImpl, network, url, options)
  if (answer.status >= 200 && answer.status < 300 && !answer.body?.error) return answer.body ?? {}
  throw graphFailure(answer, network, now)
}
