/**
 * The developer blogging fake's inbox reads (Forem API v1): `GET /api/articles/me/published`
 * (`page`, `per_page` 1 to 1000, default 30; newest published first) and `GET /api/comments?a_id=`
 * (an article's comments as threads: each top-level comment with its `children`, nested; `page`
 * and `per_page` over the top-level comments; 404 `{ error: 'not found', status: 404 }` for an
 * article that does not exist). Comments have an `id_code`, `created_at`, `body_html` and a `user`.
 */
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'

export interface DevblogComment {
  id_code: string
  article: number
  parent: string | null
  created_at: string
  body_html: string
  user: { name: string; username: string; user_id: number }
}

const err = (status: number, error: string): FakeReply => ({ status, json: { error, status } })

interface Ctx {
  articles: Array<{ id: number; published: boolean }>
  comments: DevblogComment[]
  show(a: never): unknown
  authed(
    h: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>,
  ): (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>
}

const paging = (req: FakeRequest, defaultPer: number) => {
  const page = Math.max(1, Number(req.query.get('page') ?? 1))
  const per = Math.min(1000, Math.max(1, Number(req.query.get('per_page') ?? defaultPer)))
  return { from: (page - 1) * per, to: page * per }
}

export function devblogCommentRoutes(ctx: Ctx): FakeRoute[] {
  const thread = (c: DevblogComment): unknown => ({
    type_of: 'comment',
    id_code: c.id_code,
    created_at: c.created_at,
    body_html: c.body_html,
    user: { ...c.user, profile_image_90: `https://media.example/${c.user.username}_90.jpg` },
    children: ctx.comments.filter((x) => x.parent === c.id_code).map(thread),
  })
  return [
    [
      'GET',
      '/api/articles/me/published',
      ctx.authed((req) => {
        const { from, to } = paging(req, 30)
        const published = ctx.articles.filter((a) => a.published).reverse()
        return { json: published.slice(from, to).map((a) => ctx.show(a as never)) }
      }),
    ],
    [
      'GET',
      '/api/comments',
      ctx.authed((req) => {
        const id = Number(req.query.get('a_id'))
        if (!ctx.articles.some((a) => a.id === id)) return err(404, 'not found')
        const { from, to } = paging(req, 50)
        const top = ctx.comments.filter((c) => c.article === id && c.parent === null)
        return { json: top.slice(from, to).map(thread) }
      }),
    ],
  ]
}
