/**
 * Speaking a site's REST API (WordPress wp/v2, https://developer.wordpress.org/rest-api/):
 * - APP_PASSWORD: the account's own site, `<siteUrl>/wp-json/wp/v2/...`, HTTP Basic with the
 *   user name and an application password
 *   (https://developer.wordpress.org/rest-api/using-the-rest-api/authentication/);
 * - DIRECT_LOGIN: a site hosted by WordPress.com, `<SITE_NET_API_URL>/wp/v2/sites/<siteId>/...`
 *   with the OAuth bearer token (https://developer.wordpress.com/docs/oauth2/).
 * Errors come as `{ code, message, data: { status } }`; the message is the site's own words.
 */
import type { NetworkAnswer, RequestOptions } from '../../http'
import { credential, failureOf, joinUrl, request } from '../../http'

export const NETWORK = 'SITE_NET'

export interface Session {
  fetch: typeof fetch
  now: Date
  /** Where wp/v2 routes start, ending in `/`. */
  root: string
  /** The network's own API origin (WordPress.com's `/rest/v1.1`), for DIRECT_LOGIN. */
  origin: string
  authorization: string
}

interface SessionInput {
  connection: string
  credentials: Record<string, unknown>
  fetch: typeof fetch
  baseUrl: string
  now: Date
}

export function sessionOf(input: SessionInput): Session {
  const { credentials } = input
  if (input.connection === 'DIRECT_LOGIN') {
    // Before a site is chosen (the sign-in lists them), only the network's own routes are called.
    const site = typeof credentials.siteId === 'string' ? encodeURIComponent(credentials.siteId) : ''
    return {
      fetch: input.fetch,
      now: input.now,
      root: joinUrl(input.baseUrl, `wp/v2/sites/${site}/`),
      origin: input.baseUrl,
      authorization: `Bearer ${credential(credentials, 'accessToken')}`,
    }
  }
  const user = credential(credentials, 'username')
  const password = credential(credentials, 'applicationPassword')
  const basic = btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${password}`)))
  return {
    fetch: input.fetch,
    now: input.now,
    root: joinUrl(input.baseUrl, 'wp-json/wp/v2/'),
    origin: input.baseUrl,
    authorization: `Basic ${basic}`,
  }
}

/** The site's words for a failure; a refused sign-in says to reconnect. */
function wordsOf(answer: NetworkAnswer): string | null {
  const body = answer.body
  const message = typeof body?.message === 'string' && body.message.trim() ? body.message.trim() : null
  if (answer.status === 401)
    return `the site refused the credentials (${message ?? 'unauthorized'}): reconnect the account`
  return message ?? (typeof body?.error === 'string' ? body.error : null)
}

/** A wp/v2 route's answer as it came, failure or not (for the few calls that read a failure's code). */
export const wpAnswer = (session: Session, route: string, options: RequestOptions = {}): Promise<NetworkAnswer> =>
  request(session.fetch, NETWORK, session.root + route, {
    ...options,
    headers: { authorization: session.authorization, accept: 'application/json', ...options.headers },
  })

async function send(session: Session, url: string, options: RequestOptions): Promise<NetworkAnswer> {
  const answer = await request(session.fetch, NETWORK, url, {
    ...options,
    headers: { authorization: session.authorization, accept: 'application/json', ...options.headers },
  })
  if (answer.status >= 200 && answer.status < 300) return answer
  throw failureOf(answer, NETWORK, wordsOf(answer), session.now)
}

/** A wp/v2 route (`posts`, `media/12`...), with an optional query. */
export const wp = (session: Session, route: string, options: RequestOptions = {}): Promise<NetworkAnswer> =>
  send(session, session.root + route, options)

/** A route of the network's own API (WordPress.com's `rest/v1.1/...`). */
export const hosted = (session: Session, route: string, options: RequestOptions = {}): Promise<NetworkAnswer> =>
  send(session, joinUrl(session.origin, route), options)

/** The error code a site answered with (`rest_post_invalid_id`, `rest_already_trashed`...), if any. */
export const errorCode = (answer: NetworkAnswer): string | null =>
  typeof answer.body?.code === 'string' ? answer.body.code : null

/** A failure answer as a failure in the site's words. */
export const failureFrom = (session: Session, answer: NetworkAnswer) =>
  failureOf(answer, NETWORK, wordsOf(answer), session.now)
