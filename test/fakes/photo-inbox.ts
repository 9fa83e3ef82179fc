/**
 * The photo fake's inbox endpoints (Instagram Graph API comment moderation guide, IG Media
 * Comments, IG Comment, IG Comment Replies, IG User Media and IG User Tags references): the media
 * list with like/comment counts and cursor paging, comments with `replies` nested, replies posted
 * to a top-level comment (a reply to a reply lands on its top-level comment; hidden comments take
 * no reply), `hide` on a comment, `DELETE` of a comment, and the media the account is tagged in.
 * Every call needs the account's `access_token`; an unknown or deleted object is code 100/33.
 */
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'
import { graphGone, graphInvalidCursor, graphPaging, graphTimeOf, type FakeComment } from './graph-inbox'

export interface PhotoInboxContext {
  igUserId: string
  username: () => string
  authorized: (p: Record<string, string>) => boolean
  params: (req: FakeRequest) => Record<string, string>
  unauthorized: () => FakeReply
  media: () => Array<{ id: string; caption: string | null; mediaType: string; timestamp: string; permalink: string }>
  nextId: () => string
  now: () => Date
  url: () => string
}

export interface PhotoTag {
  id: string
  caption: string
  username: string
  timestamp: Date
  permalink: string
}

export function photoInboxRoutes(ctx: PhotoInboxContext) {
  const comments: FakeComment[] = []
  const tags: PhotoTag[] = []
  const live = (id: string) => comments.find((c) => c.id === id && !c.deleted)
  const view = (c: FakeComment, fields: string[]) => {
    const all: Record<string, unknown> = {
      id: c.id,
      text: c.text,
      timestamp: graphTimeOf(c.timestamp),
      username: c.username,
      from: { id: c.authorId, username: c.username },
      hidden: c.hidden,
      ...(c.parentId ? { parent_id: c.parentId } : {}),
    }
    return Object.fromEntries(Object.entries(all).filter(([k]) => k === 'id' || fields.includes(k)))
  }
  /** `fields=a,b,replies{a,b}` split into the top fields and the nested ones. */
  const fieldsOf = (raw = 'id,text,timestamp') => {
    const nested = /replies\{([^}]*)\}/.exec(raw)?.[1]
    return { top: raw.replace(/replies\{[^}]*\}/, 'replies').split(','), replies: nested?.split(',') ?? null }
  }
  const byTime = (a: { timestamp: Date | string }, b: { timestamp: Date | string }) =>
    new Date(b.timestamp).getTime() - new Date(a.timestamp).getTime()
  const guard = (req: FakeRequest, then: (p: Record<string, string>, req: FakeRequest) => FakeReply) => {
    const p = ctx.params(req)
    return ctx.authorized(p) ? then(p, req) : ctx.unauthorized()
  }
  const page = <T>(rows: T[], p: Record<string, string>, path: string) =>
    graphPaging(rows, p, (after) => `${ctx.url()}/v23.0/${path}?limit=${p.limit ?? 25}&after=${after}`)

  function listComments(mediaId: string, p: Record<string, string>): FakeReply {
    if (!ctx.media().some((m) => m.id === mediaId)) return graphGone(mediaId)
    const f = fieldsOf(p.fields)
    const top = comments.filter((c) => c.postId === mediaId && !c.parentId && !c.deleted).sort(byTime)
    const body = page(top, p, `${mediaId}/comments`)
    if (!body) return graphInvalidCursor()
    const data = body.data.map((c) => {
      const row = view(c, f.top)
      if (f.replies) {
        const replies = comments
          .filter((r) => r.parentId === c.id && !r.deleted)
          .sort(byTime)
          .reverse()
        const first = page(replies, { limit: '2' }, `${c.id}/replies`)!
        if (replies.length) row.replies = { ...first, data: first.data.map((r) => view(r, f.replies!)) }
      }
      return row
    })
    return { json: { ...body, data } }
  }

  function listReplies(commentId: string, p: Record<string, string>): FakeReply {
    if (!live(commentId)) return graphGone(commentId)
    const rows = comments
      .filter((r) => r.parentId === commentId && !r.deleted)
      .sort(byTime)
      .reverse()
    const body = page(rows, p, `${commentId}/replies`)
    if (!body) return graphInvalidCursor()
    return { json: { ...body, data: body.data.map((r) => view(r, fieldsOf(p.fields).top)) } }
  }

  function reply(commentId: string, p: Record<string, string>): FakeReply {
    const target = live(commentId)
    if (!target) return graphGone(commentId)
    if (!p.message)
      return { status: 400, json: { error: { message: '(#100) The parameter message is required', code: 100 } } }
    if (target.hidden)
      return { status: 400, json: { error: { message: '(#10) You cannot reply to a hidden comment.', code: 10 } } }
    const top = target.parentId ? live(target.parentId)! : target
    const created: FakeComment = {
      id: ctx.nextId(),
      postId: top.postId,
      parentId: top.id,
      text: p.message,
      authorId: ctx.igUserId,
      username: ctx.username(),
      timestamp: ctx.now(),
      hidden: false,
      liked: false,
      deleted: false,
    }
    comments.push(created)
    return { json: { id: created.id } }
  }

  function hide(commentId: string, p: Record<string, string>): FakeReply {
    const c = live(commentId)
    if (!c) return graphGone(commentId)
    if (p.hide !== 'true' && p.hide !== 'false')
      return { status: 400, json: { error: { message: '(#100) The parameter hide is required', code: 100 } } }
    c.hidden = p.hide === 'true'
    return { json: { success: true } }
  }

  const routes: FakeRoute[] = [
    [
      'GET',
      new RegExp(`^/v\\d+\\.\\d+/${ctx.igUserId}/media$`),
      (req) =>
        guard(req, (p) => {
          const rows = ctx
            .media()
            .filter((m) => m.mediaType !== 'STORIES')
            .sort(byTime)
          const body = page(rows, p, `${ctx.igUserId}/media`)
          if (!body) return graphInvalidCursor()
          const data = body.data.map((m) => {
            const on = comments.filter((c) => c.postId === m.id && !c.deleted)
            return {
              id: m.id,
              caption: m.caption ?? undefined,
              media_type: m.mediaType === 'REELS' ? 'VIDEO' : m.mediaType,
              media_url: `https://cdn.photo.example/${m.id}.jpg`,
              permalink: m.permalink,
              timestamp: m.timestamp,
              like_count: 7,
              comments_count: on.length,
            }
          })
          return { json: { ...body, data } }
        }),
    ],
    [
      'GET',
      new RegExp(`^/v\\d+\\.\\d+/${ctx.igUserId}/tags$`),
      (req) =>
        guard(req, (p) => {
          const body = page([...tags].sort(byTime), p, `${ctx.igUserId}/tags`)
          if (!body) return graphInvalidCursor()
          const data = body.data.map((t) => ({ ...t, timestamp: graphTimeOf(t.timestamp) }))
          return { json: { ...body, data } }
        }),
    ],
    ['GET', /^\/v\d+\.\d+\/(\d+)\/comments$/, (req, [id]) => guard(req, (p) => listComments(id!, p))],
    ['GET', /^\/v\d+\.\d+\/(\d+)\/replies$/, (req, [id]) => guard(req, (p) => listReplies(id!, p))],
    ['POST', /^\/v\d+\.\d+\/(\d+)\/replies$/, (req, [id]) => guard(req, (p) => reply(id!, p))],
    ['POST', /^\/v\d+\.\d+\/(\d+)$/, (req, [id]) => guard(req, (p) => hide(id!, p))],
    [
      'DELETE',
      /^\/v\d+\.\d+\/(\d+)$/,
      (req, [id]) =>
        guard(req, () => {
          const c = live(id!)
          if (!c) return graphGone(id!)
          c.deleted = true
          return { json: { success: true } }
        }),
    ],
  ]
  return { routes, comments, tags }
}
