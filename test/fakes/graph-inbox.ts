/**
 * Comment stores and cursor paging shared by the Graph-family fakes (photo, page, text-thread):
 * `limit` (default 25, at most 100), `after`/`before` cursors as the documents describe them
 * (opaque base64 offsets here), `paging.next` only while more rows remain, and the error body
 * for an object that does not exist (code 100, subcode 33).
 */
import type { FakeReply } from './fake-server'

export interface FakeComment {
  id: string
  /** The post (media, thread) it is on. */
  postId: string
  parentId: string | null
  text: string
  authorId: string
  username: string
  timestamp: Date
  hidden: boolean
  liked: boolean
  deleted: boolean
}

const encode = (n: number) => Buffer.from(`o:${n}`).toString('base64url')
const decode = (c: string) => {
  const m = /^o:(\d+)$/.exec(Buffer.from(c, 'base64url').toString())
  return m ? Number(m[1]) : null
}

/** One page of `rows`, or null when the cursor is not one the fake handed out. */
export function graphPaging<T>(
  rows: T[],
  q: Record<string, string>,
  nextUrl: (after: string) => string,
): { data: T[]; paging?: object } | null {
  const limit = Math.min(Math.max(Number(q.limit ?? 25) || 25, 1), 100)
  const from = q.after ? decode(q.after) : 0
  if (from === null || from < 0) return null
  const data = rows.slice(from, from + limit)
  const end = from + data.length
  const cursors = { before: encode(from), after: encode(end) }
  if (rows.length === 0) return { data }
  return { data, paging: { cursors, ...(end < rows.length ? { next: nextUrl(encode(end)) } : {}) } }
}

export const graphGone = (id: string): FakeReply => ({
  status: 400,
  json: {
    error: {
      message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      type: 'GraphMethodException',
      code: 100,
      error_subcode: 33,
      fbtrace_id: 'AbCdEf',
    },
  },
})

export const graphInvalidCursor = (): FakeReply => ({
  status: 400,
  json: { error: { message: '(#100) Invalid cursor.', type: 'OAuthException', code: 100, fbtrace_id: 'AbCdEf' } },
})

export const graphTimeOf = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+0000')

/** The throttling answer of the Graph family: code 80002 (or 4/17/32) with the business use case usage header. */
export const graphThrottled = (minutes: number, code = 80002): FakeReply => ({
  status: 400,
  headers: {
    'x-business-use-case-usage': JSON.stringify({
      '1010': [
        {
          type: 'instagram',
          call_count: 100,
          total_cputime: 20,
          total_time: 20,
          estimated_time_to_regain_access: minutes,
        },
      ],
    }),
  },
  json: {
    error: {
      message: 'There have been too many calls from this account. Wait a bit and try again.',
      type: 'OAuthException',
      code,
      is_transient: true,
      fbtrace_id: 'AbCdEf',
    },
  },
})
