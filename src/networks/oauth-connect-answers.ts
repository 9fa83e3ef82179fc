/**
 * Reading a token (or revocation) endpoint's answer through oauth4webapi: the network's own words
 * for a failure (never a token), and the two rewrites that bring a network's answer to RFC 6749's
 * shape before it is read (`tokenAnswer` of the settings, a missing `token_type`).
 */
import * as oauth from 'oauth4webapi'
import type { OAuthProvider } from './oauth-connect-settings'

/** The network's own words for a failed token or revocation answer, never a token. */
export async function failureWords(err: unknown): Promise<string> {
  if (err instanceof oauth.ResponseBodyError)
    return err.error_description ? `${err.error}: ${err.error_description}` : `${err.error} (HTTP ${err.status})`
  if (err instanceof oauth.AuthorizationResponseError)
    return err.error_description ? `${err.error}: ${err.error_description}` : err.error
  if (err instanceof oauth.OperationProcessingError) {
    // An answer outside the protocol (a 5xx, an error page): its status and, when it is one, the OAuth error in it.
    const answer = answerOf(err)
    if (answer) return `HTTP ${answer.status}${await oauthErrorIn(answer)}`
    return err.message
  }
  if (err instanceof TypeError) return 'the network could not be reached'
  return 'an unexpected answer'
}

/** The HTTP answer an oauth4webapi error carries (a Response of whichever fetch was used), if any. */
export function answerOf(err: unknown): Response | null {
  const cause = err instanceof oauth.OperationProcessingError ? (err.cause as Partial<Response> | undefined) : undefined
  return cause && typeof cause.status === 'number' && typeof cause.clone === 'function' ? (cause as Response) : null
}

/** `: error: description` when the answer's body is an RFC 6749 error object, else ''. */
async function oauthErrorIn(response: Response): Promise<string> {
  try {
    const body = (await response.clone().json()) as { error?: unknown; error_description?: unknown }
    if (typeof body.error !== 'string') return ''
    const words = typeof body.error_description === 'string' ? `: ${body.error_description.slice(0, 300)}` : ''
    return ` ${body.error}${words}`
  } catch {
    return ''
  }
}

/** The answer as `rewrite` makes it (a body that is no JSON object is left as sent). */
export async function rewritten(
  response: Response,
  rewrite: NonNullable<OAuthProvider['tokenAnswer']>,
): Promise<Response> {
  try {
    const body = (await response.clone().json()) as unknown
    if (!body || typeof body !== 'object') return response
    const next = rewrite(response.status, body as Record<string, unknown>)
    return new Response(JSON.stringify(next.body), {
      status: next.status,
      headers: { 'content-type': 'application/json' },
    })
  } catch {
    return response
  }
}

/**
 * A token answer without `token_type` (Threads and LinkedIn document none) as a bearer one, which
 * it is; oauth4webapi requires the field. Any other answer is passed on untouched.
 */
export async function withTokenType(response: Response): Promise<Response> {
  if (!response.ok) return response
  try {
    const body = (await response.clone().json()) as Record<string, unknown>
    if (!body || typeof body !== 'object' || body.token_type !== undefined) return response
    return new Response(JSON.stringify({ ...body, token_type: 'bearer' }), {
      status: response.status,
      headers: response.headers,
    })
  } catch {
    return response
  }
}
