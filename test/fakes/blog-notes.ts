/**
 * The blog fake's reads for the inbox (Tumblr API v2): a blog's posts paged with `offset` (at most
 * 20 a page, `_links.next` naming the next page's `offset`), and a post's notes in `conversation`
 * mode: replies (`type: 'reply'`, `reply_text`, the replier's `blog_name`/`blog_uuid`, a
 * `timestamp`) newest first, 50 a page, the next page named by `_links.next.query_params.before_timestamp`.
 */
import type { FakeRequest } from './fake-server'

export interface FakeReplyNote {
  blog_name: string
  blog_uuid: string
  reply_text: string
  timestamp: number
}

export const NOTES_PAGE = 50

export function postsPage<T>(req: FakeRequest, all: T[], path: string) {
  const limit = Math.min(Math.max(Number(req.query.get('limit') ?? 20), 1), 20)
  const offset = Math.max(0, Number(req.query.get('offset') ?? 0))
  const page = all.slice(offset, offset + limit)
  const more = offset + limit < all.length
  const next = { offset: String(offset + limit), limit: String(limit) }
  return {
    page,
    total: all.length,
    links: more
      ? { next: { href: `${path}?${new URLSearchParams(next)}`, method: 'GET', query_params: next } }
      : undefined,
  }
}

export function notesPage(req: FakeRequest, postId: string, replies: FakeReplyNote[]) {
  const before = req.query.get('before_timestamp')
  const newest = [...replies]
    .sort((a, b) => b.timestamp - a.timestamp)
    .filter((n) => before === null || n.timestamp < Number(before))
  const page = newest.slice(0, NOTES_PAGE)
  const last = page.at(-1)
  const more = newest.length > NOTES_PAGE && last
  const next = more ? { mode: 'conversation', id: postId, before_timestamp: String(last.timestamp) } : null
  return {
    notes: page.map((n) => ({
      type: 'reply',
      timestamp: n.timestamp,
      blog_name: n.blog_name,
      blog_uuid: n.blog_uuid,
      blog_url: `https://${n.blog_name}.tumblr.com/`,
      avatar_shape: 'square',
      reply_text: n.reply_text,
      formatting: [],
    })),
    ...(next
      ? {
          _links: {
            next: { href: `/v2/blog/x/notes?${new URLSearchParams(next)}`, method: 'GET', query_params: next },
          },
        }
      : {}),
  }
}
