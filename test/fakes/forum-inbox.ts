/**
 * The forum fake's inbox side (https://www.reddit.com/dev/api): GET /comments/{article} (the
 * submission and its comment tree, `sort=new`, `limit`: comments past it are left in a `more`
 * stub), GET /api/morechildren (`link_id`, at most 100 `children`, answered as `json.data.things`),
 * GET /message/mentions (a listing paged by `after`), POST /api/comment (`thing_id`, `text`; a
 * deleted parent is `DELETED_COMMENT` in `json.errors`), POST /api/vote (`dir` -1, 0 or 1), and
 * POST /api/del (only the author's own; success either way).
 */
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'
import type { ForumState } from './forum-submissions'
import { listing } from './forum-submissions'

export interface FakeComment {
  id: string
  linkId: string
  parentId: string
  author: string
  body: string
  created_utc: number
  deleted: boolean
  score: number
  vote: number
}

type Api = (
  h: (req: FakeRequest, params: string[]) => FakeReply,
) => (req: FakeRequest, params: string[]) => Promise<FakeReply>

const notFound: FakeReply = { status: 404, json: { message: 'Not Found', error: 404 } }
const jsonErrors = (code: string, message: string, field: string): FakeReply => ({
  json: { json: { errors: [[code, message, field]] } },
})

export function forumInbox(
  state: ForumState,
  api: Api,
  postData: (p: ForumState['submissions'][number]) => Record<string, unknown>,
) {
  const comments: FakeComment[] = []
  const mentions: string[] = []
  const newest = (a: FakeComment, b: FakeComment) => b.created_utc - a.created_utc || b.id.localeCompare(a.id)
  const post = (linkId: string) => state.submissions.find((p) => p.name === linkId && !p.removed)
  const data = (c: FakeComment, replies: unknown = '') => {
    const p = state.submissions.find((s) => s.name === c.linkId)!
    return {
      id: c.id,
      name: `t1_${c.id}`,
      parent_id: c.parentId,
      link_id: c.linkId,
      author: c.deleted ? '[deleted]' : c.author,
      author_fullname: c.deleted ? undefined : `t2_${c.author}`,
      body: c.deleted ? '[deleted]' : c.body,
      created_utc: c.created_utc,
      score: c.score,
      likes: c.vote === 1 ? true : c.vote === -1 ? false : null,
      permalink: `/r/${p.subreddit}/comments/${p.id}/x/${c.id}/`,
      replies,
    }
  }
  const tree = (parent: string, allowed: Set<string>): unknown[] =>
    comments
      .filter((c) => c.parentId === parent && allowed.has(c.id))
      .sort(newest)
      .map((c) => {
        const below = tree(`t1_${c.id}`, allowed)
        return { kind: 't1', data: data(c, below.length ? listing(below as never, null) : '') }
      })

  const add = (linkId: string, author: string, body: string, parentId: string, created: Date) => {
    const c: FakeComment = {
      id: (++state.sequence).toString(36),
      linkId,
      parentId,
      author,
      body,
      created_utc: created.getTime() / 1000,
      deleted: false,
      score: 1,
      vote: 0,
    }
    comments.push(c)
    if (author !== state.user.name && body.includes(`u/${state.user.name}`)) mentions.push(c.id)
    return c
  }

  const routes: FakeRoute[] = [
    [
      'GET',
      /^\/comments\/([a-z0-9]+)$/,
      api((req, [article]) => {
        const p = post(`t3_${article}`)
        if (!p) return notFound
        const limit = Math.min(Number(req.query.get('limit') ?? 200), 500)
        const all = comments.filter((c) => c.linkId === p.name).sort(newest)
        const shown = new Set(all.slice(0, limit).map((c) => c.id))
        const rest = all.slice(limit).map((c) => c.id)
        const children: unknown[] = tree(p.name, shown)
        if (rest.length)
          children.push({
            kind: 'more',
            data: {
              count: rest.length,
              name: `t1_${rest[0]}`,
              id: rest[0],
              parent_id: p.name,
              depth: 0,
              children: rest,
            },
          })
        return { json: [listing([{ kind: 't3', data: postData(p) }], null), listing(children as never, null)] }
      }),
    ],
    [
      'GET',
      '/api/morechildren',
      api((req) => {
        if (req.query.get('api_type') !== 'json') return { status: 400, json: { message: 'Bad Request', error: 400 } }
        const ids = (req.query.get('children') ?? '').split(',').filter(Boolean)
        if (ids.length > 100) return jsonErrors('TOO_MANY_CHILDREN', 'too many children requested', 'children')
        const linkId = req.query.get('link_id') ?? ''
        const things = comments
          .filter((c) => c.linkId === linkId && ids.includes(c.id))
          .map((c) => ({ kind: 't1', data: data(c) }))
        return { json: { json: { errors: [], data: { things } } } }
      }),
    ],
    [
      'GET',
      '/message/mentions',
      api((req) => {
        const size = Math.min(Number(req.query.get('limit') ?? 25), 100)
        const list = mentions.map((id) => comments.find((c) => c.id === id)!).sort(newest)
        const after = req.query.get('after')
        const from = after ? list.findIndex((c) => `t1_${c.id}` === after) + 1 : 0
        const page = list.slice(from, from + size)
        const children = page.map((c) => {
          const { permalink, replies: _r, ...rest } = data(c)
          return {
            kind: 't1',
            data: {
              ...rest,
              was_comment: true,
              context: `${permalink}?context=3`,
              new: true,
              subject: 'username mention',
            },
          }
        })
        return { json: listing(children, from + size < list.length && page.length ? `t1_${page.at(-1)!.id}` : null) }
      }),
    ],
    [
      'POST',
      '/api/comment',
      api((req) => {
        const f = req.form()
        if (f.get('api_type') !== 'json') return { json: { jquery: [] } }
        const thing = f.get('thing_id') ?? ''
        const text = f.get('text') ?? ''
        if (!text.trim()) return jsonErrors('NO_TEXT', 'we need something here', 'text')
        const parent = thing.startsWith('t1_') ? comments.find((c) => `t1_${c.id}` === thing) : undefined
        const linkId = parent ? parent.linkId : thing
        if (!post(linkId))
          return jsonErrors('DELETED_LINK', 'the link you are commenting on has been deleted', 'parent')
        if (thing.startsWith('t1_') && (!parent || parent.deleted))
          return jsonErrors('DELETED_COMMENT', 'that comment has been deleted', 'parent')
        const c = add(linkId, state.user.name, text, thing, state.clock())
        return { json: { json: { errors: [], data: { things: [{ kind: 't1', data: data(c) }] } } } }
      }),
    ],
    [
      'POST',
      '/api/vote',
      api((req) => {
        const f = req.form()
        const c = comments.find((x) => `t1_${x.id}` === f.get('id') && !x.deleted)
        if (!c) return notFound
        const dir = Number(f.get('dir'))
        if (![-1, 0, 1].includes(dir)) return { status: 400, json: { message: 'Bad Request', error: 400 } }
        c.vote = dir
        return { json: {} }
      }),
    ],
  ]
  /** POST /api/del of a comment: the author's own only (a submission is handled by the caller). */
  const del = (id: string) => {
    const c = comments.find((x) => `t1_${x.id}` === id)
    if (c && c.author === state.user.name) c.deleted = true
    return c !== undefined
  }
  /** Comments among /api/info's ids (a deleted one shows as `[deleted]`). */
  const info = (ids: string[]) =>
    comments.filter((c) => ids.includes(`t1_${c.id}`)).map((c) => ({ kind: 't1', data: data(c) }))
  return { routes, comments, mentions, add, del, info }
}
