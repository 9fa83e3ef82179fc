/**
 * A loopback fake of the site publishing network (WordPress REST API wp/v2), as a self-hosted site
 * serves it under `/wp-json/wp/v2/` (HTTP Basic with an application password) and as WordPress.com
 * serves its hosted sites under `/wp/v2/sites/{site}/` (OAuth bearer token; `/rest/v1.1/me/sites`,
 * `/rest/v1.1/sites/{site}`, `/oauth2/authorize`, `/oauth2/token` answering `blog_id`). Routes
 * follow the REST API handbook: users/me, media (the bytes as the body, `Content-Disposition`
 * required), categories and tags (search; `term_exists` when a tag is there already), posts and
 * pages (one id sequence, as the posts table has; any status for the author; `after`, `search`,
 * `context=edit`), DELETE to the trash (410 `rest_already_trashed`, 404 `rest_post_invalid_id`),
 * comments with `X-WP-Total`. Errors are `{ code, message, data: { status } }`.
 */
import { oauthFake } from './oauth-provider'
import { commentsRoute, wpPage, type SiteComment } from './site-comments'
import { startFakeServer, type FakeReply, type FakeRequest, type FakeRoute } from './fake-server'

export interface SitePost {
  id: number
  type: 'post' | 'page'
  title: string
  content: string
  excerpt: string
  status: string
  slug: string
  categories: number[]
  tags: number[]
  featured_media: number
  author: number
  date: string
  comments: number
}

export interface SiteMedia {
  id: number
  filename: string
  mimeType: string
  bytes: Buffer
  alt_text: string
}

interface SiteState {
  posts: SitePost[]
  media: SiteMedia[]
  categories: Array<{ id: number; name: string }>
  tags: Array<{ id: number; name: string }>
  comments: SiteComment[]
}

const wpError = (status: number, code: string, message: string): FakeReply => ({
  status,
  json: { code, message, data: { status } },
})
const STATUSES = ['publish', 'draft', 'private', 'pending', 'future']
const USER = { id: 7, name: 'Wren Writer', slug: 'wren', username: 'wren' }

const newSite = (): SiteState => ({
  posts: [],
  media: [],
  categories: [
    { id: 1, name: 'Uncategorized' },
    { id: 5, name: 'News & Notes' },
    { id: 6, name: 'Releases' },
  ],
  tags: [{ id: 20, name: 'api' }],
  comments: [],
})

export async function startSiteFake(options: { now: () => Date }) {
  const self = { username: 'wren', applicationPassword: 'abcd EFGH 1234 ijkl MNOP 5678', site: newSite() }
  const hostedSites = new Map<string, { name: string; URL: string; canPublish: boolean; site: SiteState }>([
    ['501', { name: 'Wren on the road', URL: 'https://wrenroad.example.com', canPublish: true, site: newSite() }],
    ['502', { name: 'Wren recipes', URL: 'https://wrenrecipes.example.com', canPublish: true, site: newSite() }],
    ['503', { name: 'Team blog (reader)', URL: 'https://team.example.com', canPublish: false, site: newSite() }],
  ])
  const tokens = new Set<string>()
  let serial = 100
  const oauth = oauthFake(
    {
      client: { id: 'wpcom-client', secret: 'wpcom-secret' },
      clientAuth: 'post',
      pkce: false,
      answerFields: () => ({ blog_id: 0, blog_url: null }),
    },
    (issued) => tokens.add(issued.accessToken),
  )

  const postJson = (p: SitePost, edit: boolean) => ({
    id: p.id,
    type: p.type,
    status: p.status,
    slug: p.slug,
    link: p.status === 'publish' ? `${server.url}/${p.slug}/` : `${server.url}/?p=${p.id}`,
    date: p.date,
    author: p.author,
    title: { ...(edit ? { raw: p.title } : {}), rendered: p.title.replace(/&/g, '&#038;') },
    content: { ...(edit ? { raw: p.content } : {}), rendered: p.content },
    excerpt: { ...(edit ? { raw: p.excerpt } : {}), rendered: p.excerpt },
    featured_media: p.featured_media,
    ...(p.type === 'post' ? { categories: p.categories, tags: p.tags } : {}),
  })

  /** One wp/v2 route on a site. */
  function route(site: SiteState, req: FakeRequest, path: string): FakeReply {
    const q = req.query
    const m = (re: RegExp) => re.exec(path)
    if (req.method === 'GET' && path === 'users/me')
      return { json: q.get('context') === 'edit' ? USER : { id: USER.id, name: USER.name, slug: USER.slug } }
    if (req.method === 'POST' && path === 'media') {
      const disposition = req.headers['content-disposition'] ?? ''
      const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1]
      if (!filename) return wpError(400, 'rest_upload_no_content_disposition', 'No Content-Disposition supplied.')
      if (req.body.length === 0) return wpError(400, 'rest_upload_no_data', 'No data supplied.')
      const media = {
        id: ++serial,
        filename,
        mimeType: req.headers['content-type'] ?? '',
        bytes: req.body,
        alt_text: '',
      }
      site.media.push(media)
      return { status: 201, json: { id: media.id, source_url: `${server.url}/uploads/${filename}` } }
    }
    const mediaEdit = m(/^media\/(\d+)$/)
    if (req.method === 'POST' && mediaEdit) {
      const media = site.media.find((x) => x.id === Number(mediaEdit[1]))
      if (!media) return wpError(404, 'rest_post_invalid_id', 'Invalid post ID.')
      media.alt_text = String(req.json().alt_text ?? '')
      return { json: { id: media.id, alt_text: media.alt_text } }
    }
    const terms = m(/^(categories|tags)$/)
    if (terms) {
      const list = terms[1] === 'categories' ? site.categories : site.tags
      if (req.method === 'GET') {
        const search = (q.get('search') ?? '').toLowerCase()
        return {
          json: list
            .filter((t) => t.name.toLowerCase().includes(search))
            .map((t) => ({ id: t.id, name: t.name.replace(/&/g, '&amp;') })),
        }
      }
      const name = String(req.json().name ?? '')
      const existing = list.find((t) => t.name.toLowerCase() === name.toLowerCase())
      if (existing)
        return {
          status: 400,
          json: {
            code: 'term_exists',
            message: 'A term with the name provided already exists in this taxonomy.',
            data: { status: 400, term_id: existing.id },
          },
        }
      const term = { id: ++serial, name }
      list.push(term)
      return { status: 201, json: term }
    }
    const collection = m(/^(posts|pages)$/)
    if (collection) {
      const type = collection[1] === 'pages' ? 'page' : 'post'
      if (req.method === 'GET') {
        const after = q.get('after') ? Date.parse(q.get('after')!) : null
        const search = (q.get('search') ?? '').toLowerCase()
        const statuses = q.get('status') === 'any' ? STATUSES : ['publish']
        const found = site.posts
          .filter((p) => p.type === type && statuses.includes(p.status))
          .filter((p) => !q.get('author') || p.author === Number(q.get('author')))
          .filter((p) => after === null || Date.parse(p.date) > after)
          .filter((p) => !search || p.title.toLowerCase().includes(search) || p.content.toLowerCase().includes(search))
          .reverse()
        const page = wpPage(req, found)
        if (!('items' in page)) return page
        return { json: page.items.map((p) => postJson(p, q.get('context') === 'edit')), headers: page.headers }
      }
      const b = req.json()
      const status = b.status ?? 'draft'
      if (!STATUSES.includes(status)) return wpError(400, 'rest_invalid_param', `Invalid parameter(s): status`)
      if (b.featured_media && !site.media.some((x) => x.id === b.featured_media))
        return wpError(400, 'rest_invalid_featured_media', 'Invalid featured media ID.')
      const post: SitePost = {
        id: ++serial,
        type,
        title: String(b.title ?? ''),
        content: String(b.content ?? ''),
        excerpt: String(b.excerpt ?? ''),
        status,
        slug: b.slug ?? `${type}-${serial}`,
        categories: type === 'post' ? (b.categories ?? [1]) : [],
        tags: type === 'post' ? (b.tags ?? []) : [],
        featured_media: b.featured_media ?? 0,
        author: USER.id,
        date: options.now().toISOString(),
        comments: 0,
      }
      site.posts.push(post)
      return { status: 201, json: postJson(post, true) }
    }
    const one = m(/^(posts|pages)\/(\d+)$/)
    if (one && req.method === 'DELETE') {
      const type = one[1] === 'pages' ? 'page' : 'post'
      const post = site.posts.find((p) => p.id === Number(one[2]) && p.type === type)
      if (!post) return wpError(404, 'rest_post_invalid_id', 'Invalid post ID.')
      if (post.status === 'trash') return wpError(410, 'rest_already_trashed', 'The post has already been deleted.')
      post.status = 'trash'
      return { json: postJson(post, true) }
    }
    const counted = site.posts.find((p) => p.id === Number(q.get('post')))
    if (req.method === 'GET' && path === 'comments' && counted && !site.comments.some((c) => c.post === counted.id))
      return { json: [], headers: { 'x-wp-total': String(counted.comments), 'x-wp-totalpages': '1' } }
    const ctx = { posts: site.posts, comments: site.comments, now: options.now, nextId: () => ++serial, user: USER }
    const comments = commentsRoute({ ...ctx, origin: server.url }, req, path)
    if (comments) return comments
    return wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.')
  }

  const selfAuth = (req: FakeRequest): boolean => {
    const expected = Buffer.from(`${self.username}:${self.applicationPassword}`).toString('base64')
    return req.headers.authorization === `Basic ${expected}`
  }
  const bearer = (req: FakeRequest): boolean =>
    tokens.has(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '')
  const notLoggedIn = wpError(401, 'incorrect_password', 'The provided password is an invalid application password.')
  const hostedSite = (id: string) => {
    const s = hostedSites.get(id)
    return s
      ? { ID: Number(id), name: s.name, URL: s.URL, capabilities: { publish_posts: s.canPublish, edit_posts: true } }
      : null
  }

  const server = await startFakeServer([
    ['GET', '/oauth2/authorize', (req) => oauth.authorize(req)],
    ['POST', '/oauth2/token', (req) => oauth.exchange(req)],
    [
      'GET',
      '/rest/v1.1/me/sites',
      (req) =>
        bearer(req)
          ? { json: { sites: [...hostedSites.keys()].map(hostedSite) } }
          : {
              status: 403,
              json: {
                error: 'authorization_required',
                message: 'An active access token must be used to query information about the current user.',
              },
            },
    ],
    [
      'GET',
      /^\/rest\/v1\.1\/sites\/(\d+)$/,
      (req, [id]) =>
        !bearer(req)
          ? { status: 403, json: { error: 'authorization_required', message: 'An active access token must be used.' } }
          : hostedSite(id!)
            ? { json: hostedSite(id!) }
            : { status: 404, json: { error: 'unknown_blog', message: 'Unknown blog' } },
    ],
    ...(['GET', 'POST', 'DELETE'] as const).flatMap((method): FakeRoute[] => [
      [
        method,
        /^\/wp-json\/wp\/v2\/(.+)$/,
        (req, [path]) => (selfAuth(req) ? route(self.site, req, path!) : notLoggedIn),
      ],
      [
        method,
        /^\/wp\/v2\/sites\/(\d+)\/(.+)$/,
        (req, [id, path]) => {
          if (!bearer(req)) return wpError(401, 'rest_not_logged_in', 'You are not currently logged in.')
          const s = hostedSites.get(id!)
          return s ? route(s.site, req, path!) : wpError(404, 'rest_site_not_found', 'Unknown site.')
        },
      ],
    ]),
  ])

  return {
    url: server.url,
    server,
    oauth,
    self,
    hostedSites,
    tokens,
    /** A visitor's comment on a post of the self-hosted site, as the site's comment form stores it. */
    comment(post: number, fields: Partial<SiteComment> & { content: string }): SiteComment {
      const c: SiteComment = {
        id: ++serial,
        post,
        parent: 0,
        author: 0,
        author_name: 'Visitor',
        date: options.now().toISOString(),
        status: 'approved',
        ...fields,
      }
      self.site.comments.push(c)
      return c
    },
    /** The self-hosted site's application password stops working (revoked by its owner). */
    revokeApplicationPassword: () => (self.applicationPassword = 'revoked'),
  }
}
