/**
 * Speaking the developer blogging network's API (Forem API v1, https://developers.forem.com/api/v1):
 * every call carries the account's key in the `api-key` header and asks for version 1 with
 * `Accept: application/vnd.forem.api-v1+json`. Errors come as `{ error, status }`: 401 a key
 * refused, 422 an article refused in the network's words, 429 with `Retry-After`.
 */
import type { NetworkAnswer, RequestOptions } from '../../http'
import { credential, failureOf, joinUrl, request } from '../../http'

export const NETWORK = 'DEVBLOG_NET'
export const ACCEPT_V1 = 'application/vnd.forem.api-v1+json'
/** The network asks every caller for a user agent. */
export const USER_AGENT = 'social-publishing-service/1.0'
/** Most articles one page of `/api/articles/me/all` gives (the reference allows 1 to 1000). */
export const PAGE_SIZE = 100

export interface Session {
  fetch: typeof fetch
  baseUrl: string
  now: Date
  apiKey: string
}

export const sessionOf = (input: {
  credentials: Record<string, unknown>
  fetch: typeof fetch
  baseUrl: string
  now: Date
}): Session => ({
  fetch: input.fetch,
  baseUrl: input.baseUrl,
  now: input.now,
  apiKey: credential(input.credentials, 'apiKey'),
})

/** One call under `/api`; a non-2xx answer is thrown as a failure in the network's words. */
export async function call(session: Session, path: string, options: RequestOptions = {}): Promise<NetworkAnswer> {
  const answer = await request(session.fetch, NETWORK, joinUrl(session.baseUrl, `api/${path}`), {
    ...options,
    headers: { 'api-key': session.apiKey, accept: ACCEPT_V1, 'user-agent': USER_AGENT, ...options.headers },
  })
  if (answer.status >= 200 && answer.status < 300) return answer
  const words = typeof answer.body?.error === 'string' ? answer.body.error : null
  throw failureOf(
    answer,
    NETWORK,
    answer.status === 401 ? `the API key was refused (${words ?? 'unauthorized'}): reconnect the account` : words,
    session.now,
  )
}

/** One of the account's own articles as `/api/articles/me/all` lists it. */
export interface OwnArticle {
  id: string
  title: string
  bodyMarkdown: string | null
  url: string
  publishedAt: string | null
  raw: Record<string, unknown>
}

/**
 * The account's articles, published and drafts, newest first as the network lists them, page by
 * page until `pages` pages or a short page.
 */
export async function ownArticles(session: Session, pages: number): Promise<OwnArticle[]> {
  const found: OwnArticle[] = []
  for (let page = 1; page <= pages; page++) {
    const answer = await call(session, `articles/me/all?page=${page}&per_page=${PAGE_SIZE}`)
    const list = Array.isArray(answer.body) ? (answer.body as Array<Record<string, unknown>>) : []
    for (const a of list) {
      if (a.id === undefined || a.id === null) continue
      found.push({
        id: String(a.id),
        title: typeof a.title === 'string' ? a.title : '',
        bodyMarkdown: typeof a.body_markdown === 'string' ? a.body_markdown : null,
        url: typeof a.url === 'string' ? a.url : '',
        publishedAt: typeof a.published_at === 'string' ? a.published_at : null,
        raw: a,
      })
    }
    if (list.length < PAGE_SIZE) break
  }
  return found
}
