/**
 * The local business network (Google Business Profile) as the adapter speaks it: three Google APIs
 * on three origins (the My Business API v4 for local posts and reviews, the Account Management
 * API for accounts, the Business Information API for locations), one bearer-token caller for
 * them, and Google's error body `{ error: { code, status, message, details } }` classified as
 * data: the canonical `status` decides the failure class, the message (and the field errors of a
 * `ValidationError` detail) are the network's words.
 * https://developers.google.com/my-business/reference/rest,
 * https://developers.google.com/my-business/content/limits,
 * https://developers.google.com/my-business/reference/rest/Shared.Types/ValidationError
 */
import type { FailureKind } from '../../adapter'
import {
  NetworkFailure,
  credential,
  joinUrl,
  kindOfStatus,
  request,
  retryAfterSec,
  type NetworkAnswer,
} from '../../http'

export const NETWORK = 'LOCAL_NET'
/** Renew the access token (about an hour long) within five minutes of its end. */
export const REFRESH_MARGIN_SEC = 300
/**
 * The wait after a quota refusal that names none: the APIs count requests per minute (300 QPM by
 * default, and 10 edits a minute per profile).
 */
export const QUOTA_WAIT_SEC = 60

/** Google's canonical error status -> what it means to us (an HTTP status decides when none is sent). */
export const STATUS_KINDS: Record<string, FailureKind> = {
  UNAUTHENTICATED: 'auth_expired',
  // The account no longer manages the location, or the grant lost the scope: a reconnect settles it.
  PERMISSION_DENIED: 'auth_expired',
  RESOURCE_EXHAUSTED: 'rate_limited',
  INVALID_ARGUMENT: 'rejected',
  FAILED_PRECONDITION: 'rejected',
  OUT_OF_RANGE: 'rejected',
  NOT_FOUND: 'rejected',
  ALREADY_EXISTS: 'rejected',
  UNIMPLEMENTED: 'rejected',
  ABORTED: 'transient',
  INTERNAL: 'transient',
  UNAVAILABLE: 'transient',
  DEADLINE_EXCEEDED: 'transient',
  UNKNOWN: 'transient',
}

/** Words a person can act on, beside the network's own, for the classes that need an action. */
const ADVICE: Partial<Record<FailureKind, string>> = {
  auth_expired: 'reconnect the account',
  rate_limited: 'the Business Profile quota is used up for now',
}

/** Which of the configured origins each API lives on (`<KEY>` in the configuration). */
export interface LocalOrigins {
  /** My Business API v4 (local posts, reviews): the account's API origin. */
  posts: string
  /** Account Management API v1. */
  accounts: string
  /** Business Information API v1. */
  locations: string
}

export interface LocalContext {
  fetch: typeof fetch
  credentials: Record<string, unknown>
  now: Date
}

export type LocalCall = (
  method: string,
  url: string,
  options?: { query?: Record<string, string>; json?: unknown },
) => Promise<any>

/** The field errors of a `ValidationError` detail, as `field: message` words. */
function fieldErrors(details: unknown): string[] {
  if (!Array.isArray(details)) return []
  return details.flatMap((d) =>
    Array.isArray(d?.errorDetails)
      ? d.errorDetails
          .filter((e: any) => typeof e?.message === 'string' && e.message)
          .map((e: any) => (typeof e.field === 'string' && e.field ? `${e.field}: ${e.message}` : e.message))
      : [],
  )
}

/** The failure an error answer stands for, in the network's words; a quota refusal always carries a wait. */
export function localFailure(answer: NetworkAnswer, now: Date): NetworkFailure {
  const error = answer.body && typeof answer.body === 'object' ? answer.body.error : null
  const status = typeof error?.status === 'string' ? error.status : null
  const kind = (status ? STATUS_KINDS[status] : undefined) ?? kindOfStatus(answer.status)
  const said = typeof error?.message === 'string' && error.message.trim() ? error.message.trim() : null
  const words = [said ?? (status ? `${status} (HTTP ${answer.status})` : `HTTP ${answer.status}`)]
  words.push(...fieldErrors(error?.details).filter((w) => w !== said))
  const advice = ADVICE[kind]
  const message = `${NETWORK}: ${words.join('; ').slice(0, 500)}${advice ? ` (${advice})` : ''}`
  if (kind === 'rate_limited')
    return new NetworkFailure(kind, message, retryAfterSec(answer.headers, now) ?? QUOTA_WAIT_SEC)
  if (kind === 'transient') return new NetworkFailure(kind, message, retryAfterSec(answer.headers, now))
  return new NetworkFailure(kind, message)
}

/** A caller bound to the account's access token; `url` is an origin joined with a path. */
export function localClient(ctx: LocalContext): LocalCall {
  const token = credential(ctx.credentials, 'accessToken')
  return async (method, url, options = {}) => {
    const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : ''
    const answer = await request(ctx.fetch, NETWORK, url + query, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(options.json !== undefined ? { json: options.json } : {}),
    })
    if (answer.status >= 200 && answer.status < 300) return answer.body ?? {}
    throw localFailure(answer, ctx.now)
  }
}

/** `origin` + `/v4/` + a resource name (`accounts/1/locations/2/localPosts`...), its slashes kept. */
export const v4 = (origin: string, name: string) => joinUrl(origin, `/v4/${name}`)
export const v1 = (origin: string, name: string) => joinUrl(origin, `/v1/${name}`)

/** A v4 location name: `accounts/{id}/locations/{id}`, ids of letters, digits, `_` and `-`. */
export const RESOURCE_NAME = /^accounts\/[\w-]+\/locations\/[\w-]+$/

/**
 * The v4 name of the account's location (`accounts/{a}/locations/{l}`), from its credentials; a
 * name of another shape is refused before any call (it would address another resource).
 */
export function locationNameOf(credentials: Record<string, unknown>): string {
  const name = credential(credentials, 'locationName')
  if (!RESOURCE_NAME.test(name))
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: the account's location name is not accounts/{id}/locations/{id}: reconnect the account.`,
    )
  return name
}
