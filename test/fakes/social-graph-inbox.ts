/**
 * The page fake's inbox endpoints (Graph API Page reference: `/{page-id}/published_posts`,
 * `/{page-id}/tagged`, Object Comments with `filter=stream` and `order`, Comment with `is_hidden`,
 * Object Likes): cursor paging (`limit`, `after`, `paging.next` while more remain), `since` as a
 * unix time, a reply posted on a comment, hiding, deleting and liking a comment as the Page. The
 * Page token goes in the Authorization header (checked by the fake's `guarded`); a deleted
 * comment or post answers code 100/33.
 */
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'
import { graphGone, graphInvalidCursor, graphPaging, graphTimeOf, type FakeComment } from './graph-inbox'

const V = 'v23.0'

export interface PageInboxContext {
  pageId: string
  pageName: () => string
  guarded: (handler: (req: FakeRequest, params: string[]) => FakeReply) => FakeRoute[2]
  posts: () => Array<{ id: string; message: string; kind: string; createdTime: string }>
  counts: (id: string) => { reactions: number; shares: number } | undefined
  deletePost: (id: string) => FakeReply
  nextId: () => string
  now: () => Date
  url: () => string
}

export interface TaggedPost {
  id: string
  message: string
  fromId: string
  fromName: string
  createdTime: Date
}

export function pageInboxRoutes(ctx: PageInboxContext) {
  const comments: FakeComment[] = []
  const tagged: TaggedPost[] = []
  const live = (id: string) => comments.find((c) => c.id === id && !c.deleted)
  const query = (req: FakeRequest) => Object.fromEntries(req.query)
  const newestFirst = <T>(rows: T[], at: (r: T) => number) => [...rows].sort((a, b) => at(b) - at(a))
  const page = <T>(rows: T[], q: Record<string, string>, path: string) =>
    graphPaging(rows, q, (after) => `${ctx.url()}/${V}/${path}?limit=${q.limit ?? 25}&after=${after}`)
  const from = (id: string, name: string) => ({
    id,
    name,
    picture: { data: { url: `https://cdn.page.example/${id}.jpg` } },
  })
  const view = (c: FakeComment) => ({
    id: c.id,
    message: c.text,
    created_time: graphTimeOf(c.timestamp),
    from: from(c.authorId, c.username),
    ...(c.parentId ? { parent: { id: c.parentId } } : {}),
    is_hidden: c.hidden,
    permalink_url: `https://www.facebook.com/${c.postId}?comment_id=${c.id}`,
  })

  function listComments(postId: string, q: Record<string, string>): FakeReply {
    if (!ctx.posts().some((p) => p.id === postId)) return graphGone(postId)
    const on = comments.filter((c) => c.postId === postId && !c.deleted)
    // Without filter=stream only top-level comments; order is chronological unless reversed.
    const rows = (q.filter === 'stream' ? on : on.filter((c) => !c.parentId)).sort(
      (a, b) => a.timestamp.getTime() - b.timestamp.getTime(),
    )
    if (q.order === 'reverse_chronological') rows.reverse()
    const body = page(rows, q, `${postId}/comments`)
    if (!body) return graphInvalidCursor()
    return { json: { ...body, data: body.data.map(view) } }
  }

  function reply(targetId: string, req: FakeRequest): FakeReply {
    const target = live(targetId)
    if (!target) return graphGone(targetId)
    const message = req.json().message
    if (typeof message !== 'string' || !message)
      return { status: 400, json: { error: { message: '(#100) Missing message or attachment', code: 100 } } }
    const c: FakeComment = {
      id: `${target.postId.split('_')[1]}_${ctx.nextId()}`,
      postId: target.postId,
      parentId: target.parentId ?? target.id,
      text: message,
      authorId: ctx.pageId,
      username: ctx.pageName(),
      timestamp: ctx.now(),
      hidden: false,
      liked: false,
      deleted: false,
    }
    comments.push(c)
    return { json: { id: c.id } }
  }

  const routes: FakeRoute[] = [
    [
      'GET',
      new RegExp(`^/${V}/(\\d+)/published_posts$`),
      ctx.guarded((req, [id]) => {
        if (id !== ctx.pageId) return graphGone(id!)
        const q = query(req)
        const since = Number(q.since ?? 0)
        const at = (p: { createdTime: string }) => Date.parse(p.createdTime.replace('+0000', 'Z'))
        const rows = newestFirst(
          ctx.posts().filter((p) => p.kind !== 'story' && at(p) / 1000 >= since),
          at,
        )
        const body = page(rows, q, `${id}/published_posts`)
        if (!body) return graphInvalidCursor()
        const data = body.data.map((p) => {
          const c = ctx.counts(p.id)
          const n = comments.filter((x) => x.postId === p.id && !x.deleted).length
          return {
            id: p.id,
            ...(p.message ? { message: p.message } : {}),
            created_time: p.createdTime,
            permalink_url: `https://www.facebook.com/${p.id}`,
            reactions: { data: [], summary: { total_count: c?.reactions ?? 0 } },
            comments: { data: [], summary: { total_count: n } },
            ...(c && c.shares > 0 ? { shares: { count: c.shares } } : {}),
          }
        })
        return { json: { ...body, data } }
      }),
    ],
    [
      'GET',
      new RegExp(`^/${V}/(\\d+)/tagged$`),
      ctx.guarded((req) => {
        const q = query(req)
        const rows = newestFirst(tagged, (t) => t.createdTime.getTime())
        const body = page(rows, q, `${ctx.pageId}/tagged`)
        if (!body) return graphInvalidCursor()
        const data = body.data.map((t) => ({
          id: t.id,
          message: t.message,
          created_time: graphTimeOf(t.createdTime),
          from: from(t.fromId, t.fromName),
          permalink_url: `https://www.facebook.com/${t.id}`,
        }))
        return { json: { ...body, data } }
      }),
    ],
    ['GET', new RegExp(`^/${V}/(\\d+_\\d+)/comments$`), ctx.guarded((req, [id]) => listComments(id!, query(req)))],
    ['POST', new RegExp(`^/${V}/(\\d+_\\d+)/comments$`), ctx.guarded((req, [id]) => reply(id!, req))],
    [
      'POST',
      new RegExp(`^/${V}/(\\d+_\\d+)/likes$`),
      ctx.guarded((_req, [id]) => {
        const c = live(id!)
        if (!c) return graphGone(id!)
        c.liked = true
        return { json: { success: true } }
      }),
    ],
    [
      'POST',
      new RegExp(`^/${V}/(\\d+_\\d+)$`),
      ctx.guarded((req, [id]) => {
        const c = live(id!)
        if (!c) return graphGone(id!)
        const hidden = req.json().is_hidden
        if (typeof hidden !== 'boolean')
          return { status: 400, json: { error: { message: '(#100) Invalid parameter is_hidden', code: 100 } } }
        c.hidden = hidden
        return { json: { success: true } }
      }),
    ],
    [
      'DELETE',
      new RegExp(`^/${V}/(\\d+_\\d+)$`),
      ctx.guarded((_req, [id]) => {
        const c = comments.find((x) => x.id === id)
        if (!c) return ctx.deletePost(id!)
        if (c.deleted) return graphGone(id!)
        c.deleted = true
        return { json: { success: true } }
      }),
    ],
  ]
  return { routes, comments, tagged }
}
