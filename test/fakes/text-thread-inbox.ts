/**
 * The text-thread fake's inbox endpoints (Threads API: retrieve a user's threads with `since`,
 * `limit` and cursors; reply management: `/{media-id}/conversation`, a flattened list of replies
 * at every depth with `reverse` (newest first by default), `/{reply-id}/manage_reply` with `hide`
 * on top-level replies only; `/{user-id}/mentions`). Replies by others live here; the account's own
 * replies are its published posts with `reply_to_id`. `access_token` is checked by the fake's guard.
 */
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'
import { graphGone, graphInvalidCursor, graphPaging, graphTimeOf, type FakeComment } from './graph-inbox'
import type { ThreadPost } from './text-thread'

export interface ThreadInboxContext {
  userId: string
  username: () => string
  guard: (req: FakeRequest) => FakeReply | null
  params: (req: FakeRequest) => Record<string, string>
  posts: () => ThreadPost[]
  url: () => string
}

export interface ThreadMention {
  id: string
  text: string
  username: string
  timestamp: Date
  rootId: string
}

const at = (t: string | Date) => (typeof t === 'string' ? Date.parse(t.replace('+0000', 'Z')) : t.getTime())

export function threadInboxRoutes(ctx: ThreadInboxContext) {
  const replies: FakeComment[] = []
  const mentions: ThreadMention[] = []
  const others = () => replies.filter((r) => !r.deleted)
  const own = () => ctx.posts().filter((p) => !p.deleted)
  /** The post a reply (ours or another's) is ultimately on. */
  const rootOf = (id: string): string | null => {
    for (let cur: string | null = id, depth = 0; cur && depth < 50; depth++) {
      const r = others().find((x) => x.id === cur)
      const p = own().find((x) => x.id === cur)
      const up: string | null = r ? (r.parentId ?? r.postId) : (p?.replyTo ?? null)
      if (!r && !p) return null
      if (!up) return cur
      cur = up
    }
    return null
  }
  const exists = (id: string) => others().some((r) => r.id === id)
  const page = <T>(rows: T[], q: Record<string, string>, path: string) =>
    graphPaging(rows, q, (after) => `${ctx.url()}/v1.0/${path}?limit=${q.limit ?? 25}&after=${after}`)
  const guarded =
    (handler: (q: Record<string, string>, id: string) => FakeReply) =>
    (req: FakeRequest, [id]: string[]): FakeReply =>
      ctx.guard(req) ?? handler(ctx.params(req), id!)

  function conversation(q: Record<string, string>, mediaId: string): FakeReply {
    if (!own().some((p) => p.id === mediaId && !p.replyTo)) return graphGone(mediaId)
    const theirs = others()
      .filter((r) => r.postId === mediaId)
      .map((r) => ({
        id: r.id,
        text: r.text,
        timestamp: graphTimeOf(r.timestamp),
        username: r.username,
        permalink: `https://threads.example/@${r.username}/post/${r.id}`,
        hide_status: r.hidden ? 'HIDDEN' : 'NOT_HUSHED',
        replied_to: { id: r.parentId ?? r.postId },
        root_post: { id: mediaId },
        is_reply_owned_by_me: false,
      }))
    const mine = own()
      .filter((p) => p.replyTo && rootOf(p.id) === mediaId)
      .map((p) => ({
        id: p.id,
        text: p.text ?? '',
        timestamp: p.timestamp,
        username: ctx.username(),
        permalink: p.permalink,
        hide_status: 'NOT_HUSHED',
        replied_to: { id: p.replyTo },
        root_post: { id: mediaId },
        is_reply_owned_by_me: true,
      }))
    const rows = [...theirs, ...mine].sort((a, b) => at(b.timestamp) - at(a.timestamp))
    if (q.reverse === 'false') rows.reverse()
    const body = page(rows, q, `${mediaId}/conversation`)
    return body ? { json: body } : graphInvalidCursor()
  }

  const routes: FakeRoute[] = [
    [
      'GET',
      new RegExp(`^/v1\\.0/${ctx.userId}/threads$`),
      guarded((q) => {
        const since = Number(q.since ?? 0) * 1000
        const rows = own()
          .filter((p) => !p.replyTo && at(p.timestamp) >= since)
          .sort((a, b) => at(b.timestamp) - at(a.timestamp))
        const body = page(rows, q, `${ctx.userId}/threads`)
        if (!body) return graphInvalidCursor()
        const data = body.data.map((p) => ({
          id: p.id,
          text: p.text ?? undefined,
          timestamp: p.timestamp,
          permalink: p.permalink,
          media_type: p.mediaType === 'TEXT' ? 'TEXT_POST' : p.mediaType,
          username: ctx.username(),
        }))
        return { json: { ...body, data } }
      }),
    ],
    [
      'GET',
      new RegExp(`^/v1\\.0/${ctx.userId}/mentions$`),
      guarded((q) => {
        const rows = [...mentions].sort((a, b) => at(b.timestamp) - at(a.timestamp))
        const body = page(rows, q, `${ctx.userId}/mentions`)
        if (!body) return graphInvalidCursor()
        const data = body.data.map((m) => ({
          id: m.id,
          text: m.text,
          username: m.username,
          timestamp: graphTimeOf(m.timestamp),
          permalink: `https://threads.example/@${m.username}/post/${m.id}`,
          root_post: { id: m.rootId },
        }))
        return { json: { ...body, data } }
      }),
    ],
    ['GET', /^\/v1\.0\/(\d+)\/conversation$/, guarded(conversation)],
    [
      'POST',
      /^\/v1\.0\/(\d+)\/manage_reply$/,
      guarded((q, id) => {
        const r = others().find((x) => x.id === id)
        if (!r) return graphGone(id)
        if (r.parentId)
          return {
            status: 400,
            json: {
              error: {
                message: 'Only top-level replies can be hidden or unhidden.',
                type: 'THApiException',
                code: 100,
              },
            },
          }
        if (q.hide !== 'true' && q.hide !== 'false')
          return { status: 400, json: { error: { message: 'The parameter hide is required.', code: 100 } } }
        r.hidden = q.hide === 'true'
        return { json: { success: true } }
      }),
    ],
  ]
  return { routes, replies, mentions, exists }
}
