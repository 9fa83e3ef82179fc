/**
 * Inbox calls shared by the Graph API family (photo, page and text-thread networks): cursor paging
 * (`paging.cursors.after`, present while `paging.next` is), and the "object does not exist" answer
 * (code 100, subcode 33) that means a comment or post was deleted on the network.
 */
import { NetworkFailure, request } from '../../http'
import { CommentGone } from '../../inbox-adapter'
import { graphFailure } from './graph'
import type { GraphClient, GraphClientOptions } from './containers'
import { joinUrl } from '../../http'

type Params = Record<string, string>

/** Graph answers that mean the object is gone: code 100 with subcode 33, or an unknown object id. */
export const GRAPH_GONE = [{ code: 100, subcode: 33 }]

function isGone(body: any): boolean {
  const error = body && typeof body === 'object' ? body.error : undefined
  return Boolean(error) && GRAPH_GONE.some((g) => error.code === g.code && error.error_subcode === g.subcode)
}

/** Like `graphClient`, but a deleted object throws `CommentGone` instead of a refusal. */
export function graphInboxClient(o: GraphClientOptions): GraphClient {
  const call = async (url: string, init: { method?: string; form?: Params } = {}) => {
    const answer = await request(o.fetch, o.network, url, init)
    if (answer.status >= 200 && answer.status < 300 && !answer.body?.error) return answer.body ?? {}
    if (isGone(answer.body)) throw new CommentGone(`${o.network}: the comment or its post no longer exists.`)
    throw graphFailure(answer, o.network, o.now)
  }
  const url = (path: string, params: Params, versioned = true) =>
    `${joinUrl(o.baseUrl, versioned ? `${o.version}/${path}` : path)}?${new URLSearchParams({ ...params, access_token: o.accessToken })}`
  return {
    get: (path, params = {}) => call(url(path, params)),
    post: (path, params) =>
      call(joinUrl(o.baseUrl, `${o.version}/${path}`), {
        method: 'POST',
        form: { ...params, access_token: o.accessToken },
      }),
    del: (path) => call(url(path, {}), { method: 'DELETE' }),
    getRoot: (path, params) => call(url(path, params, false)),
  }
}

/** The rows of a Graph list and the cursor of the next page (null on the last). */
export function graphPage(body: any): { data: any[]; after: string | null } {
  const data = Array.isArray(body?.data) ? body.data : []
  const after = body?.paging?.next ? (body.paging.cursors?.after ?? null) : null
  return { data, after: typeof after === 'string' && after ? after : null }
}

/** A Graph time (`2026-11-20T10:00:00+0000`) as a Date; now when missing or unreadable. */
export function graphTime(raw: unknown, fallback: Date): Date {
  if (typeof raw !== 'string') return fallback
  const d = new Date(raw.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))
  return Number.isNaN(d.getTime()) ? fallback : d
}

/** A Graph success answer to a write (`{ success: true }`); anything else is a refusal. */
export function expectSuccess(body: any, network: string, what: string): void {
  if (body?.success === false) throw new NetworkFailure('rejected', `${network}: the network refused to ${what}.`)
}

export const numberOrNull = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null
