/**
 * The page network's Graph API as the page adapter speaks it: the version it pins, the error
 * codes whose meaning for a Page post is more specific than the family's table (../meta/graph.ts),
 * one authenticated call, and the permalink of a post or video.
 */
import type { FailureKind } from '../../adapter'
import { NetworkFailure, credential, joinUrl, request } from '../../http'
import { graphFailure } from '../meta/graph'

export const NETWORK = 'SOCIALGRAPH_NET'
/** Graph version of every call (v23.0 carries the media-view insight metrics). */
export const GRAPH_VERSION = 'v23.0'
/** Where the network's relative permalinks (videos) live. */
export const WEB_ORIGIN = 'https://www.facebook.com'

/**
 * Page-posting codes (Graph error-handling reference; an open-source scheduler's list), matched on
 * the error's subcode first, then its code. 368 (a temporary block for a policy reason) lasts
 * hours to days and needs the Page owner to look, so it is not retried on the engine's backoff.
 */
export const PAGE_ERRORS: Array<{ code: number; kind: FailureKind; advice: string }> = [
  {
    code: 1404078,
    kind: 'rejected',
    advice:
      "The Page needs Page Publishing Authorization: complete it in the Page's settings (Page Publishing Authorization), then retry.",
  },
  { code: 1366046, kind: 'rejected', advice: "The photo's size or format was refused: use a JPEG or PNG under 4 MB." },
  {
    code: 1609005,
    kind: 'rejected',
    advice: 'The link could not be read by the network: check that the URL is public.',
  },
  {
    code: 506,
    kind: 'rejected',
    advice: 'The network refuses a post identical to a recent one: change the text, then retry.',
  },
  {
    code: 368,
    kind: 'rejected',
    advice:
      "The network has temporarily blocked this Page from posting: check the Page's quality notices, and retry later.",
  },
]

/**
 * The text as written. The network turns `@[page-id]` in a message into a tag that notifies that
 * Page; a word joiner after the `@` keeps such text literal (it shows the same).
 */
export const literalText = (text: string): string => text.replace(/@\[/g, '@\u2060[')

export interface GraphContext {
  fetch: typeof fetch
  baseUrl: string
  now: Date
  credentials: Record<string, unknown>
}

export type GraphCall = (
  method: string,
  path: string,
  options?: { query?: Record<string, string>; json?: unknown },
) => Promise<any>

/** A caller bound to the account's page token (sent as a Bearer header, never in the URL). */
export function graphClient(ctx: GraphContext): GraphCall {
  const token = credential(ctx.credentials, 'accessToken')
  return async (method, path, options = {}) => {
    const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : ''
    const url = joinUrl(joinUrl(ctx.baseUrl, GRAPH_VERSION), path) + query
    const answer = await request(ctx.fetch, NETWORK, url, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(options.json !== undefined ? { json: options.json } : {}),
    })
    if (answer.status >= 200 && answer.status < 300 && !answer.body?.error) return answer.body ?? {}
    const failure = graphFailure(answer, NETWORK, ctx.now)
    const error = answer.body?.error || {}
    const special =
      PAGE_ERRORS.find((e) => e.code === error.error_subcode) ?? PAGE_ERRORS.find((e) => e.code === error.code)
    if (special && failure.kind !== 'auth_expired')
      throw new NetworkFailure(special.kind, `${failure.message}. ${special.advice}`)
    throw failure
  }
}

/** True for the "object does not exist" answer (code 100, subcode 33). */
export const isMissingObject = (err: unknown): boolean =>
  err instanceof NetworkFailure && err.kind === 'rejected' && /\(code 100\/33\)/.test(err.message)

/** The public link of a post or video; videos answer with a path on the network's site. */
export async function permalinkOf(call: GraphCall, id: string): Promise<string> {
  const body = await call('GET', id, { query: { fields: 'permalink_url' } })
  const link = typeof body.permalink_url === 'string' ? body.permalink_url : ''
  if (!link) return `${WEB_ORIGIN}/${encodeURIComponent(id)}`
  return link.startsWith('/') ? `${WEB_ORIGIN}${link}` : link
}

/** `status.video_status` values that end a video or reel for good (the Video API's status field). */
export const FAILED_VIDEO_STATUSES = ['error', 'expired']
