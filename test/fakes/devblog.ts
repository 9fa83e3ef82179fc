/**
 * A loopback fake of the developer blogging network (Forem API v1, as DEV serves it): the
 * `api-key` header on every call, the version asked for with `Accept:
 * application/vnd.forem.api-v1+json`, `GET /api/users/me`, `POST /api/articles` (201 with the
 * article; 422 `{ error, status }` for a missing or long title, more than four tags or a tag that
 * is not letters and digits), `PUT /api/articles/{id}` (unpublish), and
 * `GET /api/articles/me/all` (paged, newest first, drafts included, with the author's counts).
 * There is no delete in the API, so the fake has none. 401 is `{ error: 'unauthorized', status: 401 }`.
 */
import { devblogCommentRoutes, type DevblogComment } from './devblog-comments'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'

export interface DevblogArticle {
  id: number
  title: string
  body_markdown: string
  published: boolean
  published_at: string | null
  tags: string[]
  canonical_url: string | null
  description: string | null
  series: string | null
  main_image: string | null
  public_reactions_count: number
  comments_count: number
  page_views_count: number
  /** What the create call's body carried, as sent. */
  sent: Record<string, unknown>
}

const V1 = 'application/vnd.forem.api-v1+json'
const TAG = /^[\p{L}\p{N}]+$/u
const err = (status: number, error: string): FakeReply => ({ status, json: { error, status } })

export async function startDevblogFake(options: { now: () => Date; apiKey?: string }) {
  const state = {
    apiKeys: new Set([options.apiKey ?? 'dev-key-1']),
    user: { id: 4242, username: 'ada_writes', name: 'Ada' },
    articles: [] as DevblogArticle[],
    comments: [] as DevblogComment[],
    /** Requests that came without the v1 Accept header. */
    withoutV1: 0,
  }
  let serial = 1000

  const authed =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    (req: FakeRequest, params: string[]) => {
      if (req.headers.accept !== V1) state.withoutV1++
      if (!state.apiKeys.has(req.headers['api-key'] ?? '')) return err(401, 'unauthorized')
      return handler(req, params)
    }

  const urlOf = (a: DevblogArticle) => `${server.url}/${state.user.username}/article-${a.id}`
  const showJson = (a: DevblogArticle) => ({
    type_of: 'article',
    id: a.id,
    title: a.title,
    description: a.description ?? a.body_markdown.slice(0, 100),
    published: a.published,
    published_at: a.published_at,
    slug: `article-${a.id}`,
    path: `/${state.user.username}/article-${a.id}`,
    url: urlOf(a),
    canonical_url: a.canonical_url ?? urlOf(a),
    cover_image: a.main_image,
    tag_list: a.tags,
    body_markdown: a.body_markdown,
    comments_count: a.comments_count,
    public_reactions_count: a.public_reactions_count,
    page_views_count: a.page_views_count,
    user: { name: state.user.name, username: state.user.username },
  })

  /** Forem's article validations the reference's 422 stands for. */
  const problem = (title: unknown, tags: string[]): string | null => {
    if (typeof title !== 'string' || title.trim() === '') return "Title can't be blank"
    if (title.length > 128) return 'Title is too long (maximum is 128 characters)'
    if (tags.length > 4) return 'Tag list exceed the maximum of 4 tags'
    const bad = tags.find((t) => !TAG.test(t) || t.length > 30)
    if (bad !== undefined) return `Tag "${bad}" contains non-alphanumeric or prohibited unicode characters`
    return null
  }
  const tagsOf = (v: unknown): string[] =>
    Array.isArray(v)
      ? v.map(String)
      : typeof v === 'string'
        ? v
            .split(',')
            .map((t) => t.trim())
            .filter((t) => t !== '')
        : []

  const server = await startFakeServer(
    [
      ['GET', '/api/users/me', authed(() => ({ json: { type_of: 'user', ...state.user } }))],
      [
        'POST',
        '/api/articles',
        authed((req) => {
          const body = req.json()
          const a = body?.article
          if (!a || typeof a !== 'object') return err(422, 'param is missing or the value is empty: article')
          const tags = tagsOf(a.tags)
          const refused = problem(a.title, tags)
          if (refused) return err(422, refused)
          const published = a.published === true || a.published === 'true'
          const article: DevblogArticle = {
            id: ++serial,
            title: a.title,
            body_markdown: typeof a.body_markdown === 'string' ? a.body_markdown : '',
            published,
            published_at: published ? options.now().toISOString() : null,
            tags,
            canonical_url: a.canonical_url ?? null,
            description: a.description ?? null,
            series: a.series ?? null,
            main_image: a.main_image ?? null,
            public_reactions_count: 0,
            comments_count: 0,
            page_views_count: 0,
            sent: a,
          }
          state.articles.push(article)
          return { status: 201, json: showJson(article) }
        }),
      ],
      [
        'PUT',
        /^\/api\/articles\/(\d+)$/,
        authed((req, [id]) => {
          const article = state.articles.find((a) => a.id === Number(id))
          if (!article) return err(404, 'not found')
          const a = req.json()?.article ?? {}
          if (a.published === false) Object.assign(article, { published: false, published_at: null })
          return { json: showJson(article) }
        }),
      ],
      [
        'GET',
        '/api/articles/me/all',
        authed((req) => {
          const page = Math.max(1, Number(req.query.get('page') ?? 1))
          const perPage = Math.min(1000, Math.max(1, Number(req.query.get('per_page') ?? 30)))
          const newest = [...state.articles].reverse()
          return { json: newest.slice((page - 1) * perPage, page * perPage).map(showJson) }
        }),
      ],
      ...devblogCommentRoutes({ articles: state.articles, comments: state.comments, show: showJson as never, authed }),
    ],
    () => err(404, 'not found'),
  )

  return {
    url: server.url,
    server,
    state,
    apiKey: options.apiKey ?? 'dev-key-1',
    revokeKeys: () => state.apiKeys.clear(),
    /** A reader's comment on an article (a reply when `parent` names a comment's `id_code`). */
    comment(article: number, body: string, user: { name: string; username: string; user_id: number }, parent?: string) {
      const c: DevblogComment = {
        id_code: `c${(++serial).toString(36)}`,
        article,
        parent: parent ?? null,
        created_at: options.now().toISOString(),
        body_html: `<p>${body}</p>\n`,
        user,
      }
      state.comments.push(c)
      return c
    },
  }
}
