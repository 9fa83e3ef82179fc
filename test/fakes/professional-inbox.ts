/**
 * The professional fake's inbox endpoints (Community Management API: Posts API `q=author` with
 * `start`/`count` paging; Comments API `/rest/socialActions/{target}/comments` on a post or a
 * comment URN, create with `actor`, `object`, `message.text` and `parentComment` on a reply,
 * delete with `?actor=`; Reactions API `POST /rest/reactions?actor=` with `root` and
 * `reactionType`). Headers are checked by the fake's guard; an unknown target is 404.
 */
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'

export interface FakeLinkedInComment {
  id: string
  urn: string
  postUrn: string
  parentUrn: string | null
  actor: string
  text: string
  time: number
  deleted: boolean
  likedBy: string[]
}

export interface ProfessionalInboxContext {
  withGuard: (handler: (req: FakeRequest, params: string[]) => FakeReply) => FakeRoute[2]
  error: (status: number, code: string, message: string) => FakeReply
  posts: () => Array<{ urn: string; author: string; commentary: string; publishedAt?: number }>
  now: () => Date
}

export function professionalInboxRoutes(ctx: ProfessionalInboxContext) {
  const comments: FakeLinkedInComment[] = []
  let seq = 0
  const live = (urn: string) => comments.find((c) => c.urn === urn && !c.deleted)
  const range = (req: FakeRequest) => ({
    start: Math.max(Number(req.query.get('start') ?? 0) || 0, 0),
    count: Math.min(Math.max(Number(req.query.get('count') ?? 10) || 10, 1), 100),
  })
  const view = (c: FakeLinkedInComment) => {
    const replies = comments.filter((r) => r.parentUrn === c.urn && !r.deleted).length
    return {
      id: c.id,
      commentUrn: c.urn,
      actor: c.actor,
      agent: c.actor,
      object: c.postUrn,
      message: { text: c.text, attributes: [] },
      created: { actor: c.actor, time: c.time },
      lastModified: { actor: c.actor, time: c.time },
      ...(c.parentUrn ? { parentComment: c.parentUrn } : {}),
      commentsSummary: { totalFirstLevelComments: replies, aggregatedTotalComments: replies },
      likesSummary: { totalLikes: c.likedBy.length, likedByCurrentUser: false },
    }
  }
  const notFound = () => ctx.error(404, 'NOT_FOUND', 'Resource not found')
  const postExists = (urn: string) => ctx.posts().some((p) => p.urn === urn)

  const routes: FakeRoute[] = [
    [
      'GET',
      '/rest/posts',
      ctx.withGuard((req) => {
        if (req.query.get('q') !== 'author') return ctx.error(400, 'BAD_REQUEST', 'q=author is required')
        const { start, count } = range(req)
        const mine = ctx
          .posts()
          .map((p, i) => ({ ...p, at: p.publishedAt ?? ctx.now().getTime() + i }))
          .filter((p) => p.author === req.query.get('author'))
          .sort((a, b) => b.at - a.at)
        const elements = mine.slice(start, start + count).map((p) => ({
          id: p.urn,
          author: p.author,
          commentary: p.commentary,
          lifecycleState: 'PUBLISHED',
          visibility: 'PUBLIC',
          createdAt: p.at,
          publishedAt: p.at,
        }))
        return { json: { paging: { start, count, total: mine.length, links: [] }, elements } }
      }),
    ],
    [
      'GET',
      /^\/rest\/socialActions\/([^/]+)\/comments$/,
      ctx.withGuard((req, [t]) => {
        const target = decodeURIComponent(t!)
        if (!postExists(target) && !live(target)) return notFound()
        const { start, count } = range(req)
        const on = comments
          .filter((c) => !c.deleted && (c.parentUrn ? c.parentUrn === target : c.postUrn === target))
          .sort((a, b) => b.time - a.time)
        return {
          json: {
            paging: { start, count, total: on.length, links: [] },
            elements: on.slice(start, start + count).map(view),
          },
        }
      }),
    ],
    [
      'POST',
      /^\/rest\/socialActions\/([^/]+)\/comments$/,
      ctx.withGuard((req, [t]) => {
        const target = decodeURIComponent(t!)
        const b = req.json()
        if (typeof b.actor !== 'string' || typeof b.object !== 'string' || typeof b.message?.text !== 'string')
          return ctx.error(422, 'UNPROCESSABLE_ENTITY', 'actor, object and message.text are required')
        const parent = target.startsWith('urn:li:comment:') ? live(target) : null
        if (target.startsWith('urn:li:comment:') && (!parent || b.parentComment !== target)) return notFound()
        if (!parent && !postExists(target)) return notFound()
        const id = String(7_100_000_000 + ++seq)
        const postUrn = parent?.postUrn ?? target
        const c: FakeLinkedInComment = {
          id,
          urn: `urn:li:comment:(${postUrn},${id})`,
          postUrn,
          parentUrn: parent?.urn ?? null,
          actor: b.actor,
          text: b.message.text,
          time: ctx.now().getTime(),
          deleted: false,
          likedBy: [],
        }
        comments.push(c)
        return { status: 201, headers: { 'x-restli-id': c.urn }, json: view(c) }
      }),
    ],
    [
      'DELETE',
      /^\/rest\/socialActions\/([^/]+)\/comments\/([^/]+)$/,
      ctx.withGuard((req, [t, id]) => {
        const target = decodeURIComponent(t!)
        const c = comments.find(
          (x) => x.id === decodeURIComponent(id!) && !x.deleted && (x.parentUrn ?? x.postUrn) === target,
        )
        if (!c) return notFound()
        if (!req.query.get('actor')) return ctx.error(400, 'BAD_REQUEST', 'actor is required')
        c.deleted = true
        return { status: 204 }
      }),
    ],
    [
      'POST',
      '/rest/reactions',
      ctx.withGuard((req) => {
        const actor = req.query.get('actor')
        const b = req.json()
        if (!actor || b.reactionType !== 'LIKE')
          return ctx.error(422, 'UNPROCESSABLE_ENTITY', 'actor and reactionType are required')
        const c = live(b.root)
        if (!c && !postExists(b.root)) return notFound()
        c?.likedBy.push(actor)
        return { status: 201, headers: { 'x-restli-id': `urn:li:reaction:(${actor},${b.root})` }, body: '' }
      }),
    ],
  ]
  return { routes, comments }
}
