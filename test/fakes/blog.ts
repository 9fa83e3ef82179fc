/**
 * A loopback fake of the blog network's API v2 (Tumblr), from its reference and the Neue Post
 * Format specification: every answer in the `{ meta: { status, msg }, response }` envelope, errors
 * with an `errors[]` of `{ title, code, detail }`; Bearer tokens (401 when wrong); the OAuth 2
 * authorization and token endpoints (client id and secret in the form; a refresh rotates the
 * refresh token); `/v2/user/info` with the member's blogs; NPF post creation as a multipart form
 * (`json` part first, media parts keyed by their `identifier`, checked to be images or video) or
 * JSON, with the NPF content limits; the blog's published, draft and queued posts in NPF (ids
 * beyond 2^53, so `id_string` matters); notes totals; delete; a User-Agent required.
 */
import { oauthFake } from './oauth-provider'
import { notesPage, postsPage, type FakeReplyNote } from './blog-notes'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'

export interface FakeBlog {
  name: string
  uuid: string
  title: string
  followers: number
}

export interface FakeBlogPost {
  id: string
  blog: string
  state: string
  timestamp: number
  tags: string[]
  source_url: string | null
  content: Array<Record<string, any>>
  /** Uploaded bytes by identifier. */
  uploads: Map<string, { type: string; bytes: Buffer }>
  notes: { likes: number; reblogs: number; replies: number }
  /** Replies left on the post (its notes of type `reply`). */
  replyNotes?: FakeReplyNote[]
}

const WORDS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Limit Exceeded',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}
const ok = (response: unknown, status = 200): FakeReply => ({
  status,
  json: { meta: { status, msg: WORDS[status] }, response },
})
export const blogError = (
  status: number,
  code: number,
  detail: string,
  headers?: Record<string, string>,
): FakeReply => ({
  status,
  json: {
    meta: { status, msg: WORDS[status] ?? 'Error' },
    response: [],
    errors: [{ title: WORDS[status], code, detail }],
  },
  ...(headers ? { headers } : {}),
})
const isImage = (b: Buffer) =>
  (b[0] === 0xff && b[1] === 0xd8) ||
  b.subarray(0, 4).toString('latin1') === '\x89PNG' ||
  b.subarray(0, 3).toString() === 'GIF'
const STATES = ['published', 'draft', 'queue', 'private']

export async function startBlogFake(options: { blogs?: FakeBlog[] } = {}) {
  const state = {
    accessToken: 'tb_access_1',
    refreshToken: 'tb_refresh_1',
    client: { id: 'tumblr-key', secret: 'tumblr-secret' },
    refreshCount: 0,
    member: 'ada',
    blogs: options.blogs ?? [
      { name: 'ada-bakes', uuid: 't:AdaBakes0000000000001', title: 'Ada bakes', followers: 1200 },
      { name: 'ada-notes', uuid: 't:AdaNotes0000000000002', title: 'Notes', followers: 40 },
    ],
    posts: [] as FakeBlogPost[],
    failures: [] as Array<{ path?: RegExp; reply: FakeReply }>,
    userAgents: new Set<string>(),
    clock: () => new Date(),
    // Post ids are 64-bit: beyond what a JSON number keeps exactly.
    sequence: 9_007_199_254_740_993n,
  }
  const oauth = oauthFake({ client: state.client, clientAuth: 'post', pkce: false, expiresIn: 2520 }, (issued) => {
    state.accessToken = issued.accessToken
    state.refreshToken = issued.refreshToken
  })
  const blogOf = (id: string) =>
    state.blogs.find((b) => b.uuid === id || b.name === id || `${b.name}.tumblr.com` === id)

  const guarded =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    async (req: FakeRequest, params: string[]): Promise<FakeReply> => {
      const i = state.failures.findIndex((f) => !f.path || f.path.test(`${req.method} ${req.path}`))
      if (i >= 0) return state.failures.splice(i, 1)[0]!.reply
      if (!req.headers['user-agent']) return blogError(400, 0, 'A User-Agent header is required.')
      state.userAgents.add(req.headers['user-agent'])
      if (req.headers.authorization !== `Bearer ${state.accessToken}`)
        return blogError(401, 1016, 'Unable to authorize')
      return handler(req, params)
    }
  const onBlog =
    (handler: (req: FakeRequest, blog: FakeBlog, params: string[]) => FakeReply | Promise<FakeReply>) =>
    (req: FakeRequest, params: string[]) => {
      const blog = blogOf(decodeURIComponent(params[0]!))
      return blog ? handler(req, blog, params.slice(1)) : blogError(404, 0, 'Blog not found.')
    }

  const token = (req: FakeRequest): FakeReply => {
    const form = req.form()
    if (form.get('grant_type') === 'authorization_code') return oauth.exchange(req)
    if (form.get('client_id') !== state.client.id || form.get('client_secret') !== state.client.secret)
      return { status: 401, json: { error: 'invalid_client', error_description: 'Client authentication failed' } }
    if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== state.refreshToken)
      return { status: 401, json: { error: 'invalid_grant', error_description: 'The refresh token has expired' } }
    state.refreshCount++
    state.accessToken = `tb_access_${state.refreshCount + 1}`
    state.refreshToken = `tb_refresh_${state.refreshCount + 1}`
    return {
      json: {
        access_token: state.accessToken,
        expires_in: 2520,
        id_token: false,
        refresh_token: state.refreshToken,
        scope: 'basic write offline_access',
        token_type: 'bearer',
      },
    }
  }

  const createPost = async (req: FakeRequest, blog: FakeBlog): Promise<FakeReply> => {
    const type = req.headers['content-type'] ?? ''
    const uploads = new Map<string, { type: string; bytes: Buffer }>()
    let body: Record<string, any>
    if (type.startsWith('multipart/form-data')) {
      const form = await req.formData()
      const json = form.get('json')
      if (!(json instanceof Blob)) return blogError(400, 8001, "The 'json' part is missing.")
      body = JSON.parse(await json.text())
      for (const [key, value] of form.entries())
        if (key !== 'json' && value instanceof Blob)
          uploads.set(key, { type: value.type, bytes: Buffer.from(await value.arrayBuffer()) })
    } else if (type.startsWith('application/json')) body = req.json()
    else return blogError(400, 8001, 'Unsupported content type.')
    const content = body.content
    if (!Array.isArray(content) || content.length === 0) return blogError(400, 8001, "'content' must be an array")
    const problem = checkContent(content, uploads)
    if (problem) return problem
    const postState = body.state ?? 'published'
    if (!STATES.includes(postState)) return blogError(400, 8001, `Invalid state '${postState}'.`)
    const id = String(++state.sequence)
    state.posts.unshift({
      id,
      blog: blog.uuid,
      state: postState,
      timestamp: Math.floor(state.clock().getTime() / 1000),
      tags: typeof body.tags === 'string' && body.tags ? body.tags.split(',').map((t: string) => t.trim()) : [],
      source_url: body.source_url ?? null,
      content: content.map((b: Record<string, any>) => stored(b, id)),
      uploads,
      notes: { likes: 0, reblogs: 0, replies: 0 },
    })
    return ok({ id }, 201)
  }

  const listPosts = (req: FakeRequest, blog: FakeBlog, states: string[]): FakeReply => {
    const listed = state.posts.filter((p) => p.blog === blog.uuid && states.includes(p.state))
    const { page, total, links } = postsPage(req, listed, req.path)
    const posts = page.map((p) => ({
      object_type: 'post',
      type: 'blocks',
      id: Number(p.id),
      id_string: p.id,
      blog_name: blog.name,
      post_url: `https://www.tumblr.com/${blog.name}/${p.id}`,
      timestamp: p.timestamp,
      state: p.state,
      tags: p.tags,
      note_count: p.notes.likes + p.notes.reblogs + p.notes.replies + (p.replyNotes?.length ?? 0),
      is_blocks_post_format: true,
      content: p.content,
      layout: [],
      trail: [],
    }))
    return ok({
      blog: { name: blog.name, uuid: blog.uuid },
      posts,
      total_posts: total,
      ...(links ? { _links: links } : {}),
    })
  }

  const server = await startFakeServer(
    [
      ['GET', '/oauth2/authorize', (req) => oauth.authorize(req)],
      ['POST', '/v2/oauth2/token', token],
      [
        'GET',
        '/v2/user/info',
        guarded(() =>
          ok({
            user: {
              name: state.member,
              likes: 3,
              following: 12,
              default_post_format: 'html',
              blogs: state.blogs.map((b, i) => ({
                name: b.name,
                title: b.title,
                url: `https://${b.name}.tumblr.com/`,
                uuid: b.uuid,
                primary: i === 0,
                followers: b.followers,
                type: 'public',
                tweet: 'N',
              })),
            },
          }),
        ),
      ],
      ['POST', /^\/v2\/blog\/([^/]+)\/posts$/, guarded(onBlog(createPost))],
      ['GET', /^\/v2\/blog\/([^/]+)\/posts$/, guarded(onBlog((req, b) => listPosts(req, b, ['published', 'private'])))],
      ['GET', /^\/v2\/blog\/([^/]+)\/posts\/draft$/, guarded(onBlog((req, b) => listPosts(req, b, ['draft'])))],
      ['GET', /^\/v2\/blog\/([^/]+)\/posts\/queue$/, guarded(onBlog((req, b) => listPosts(req, b, ['queue'])))],
      [
        'POST',
        /^\/v2\/blog\/([^/]+)\/post\/delete$/,
        guarded(
          onBlog((req, blog) => {
            const id = req.form().get('id')
            const i = state.posts.findIndex((p) => p.id === id && p.blog === blog.uuid)
            if (i < 0) return blogError(404, 0, 'Post not found.')
            state.posts.splice(i, 1)
            return ok([])
          }),
        ),
      ],
      [
        'GET',
        /^\/v2\/blog\/([^/]+)\/notes$/,
        guarded(
          onBlog((req, blog) => {
            const post = state.posts.find((p) => p.id === req.query.get('id') && p.blog === blog.uuid)
            if (!post) return blogError(404, 0, 'Post not found.')
            const { likes, reblogs, replies } = post.notes
            if (req.query.get('mode') !== 'conversation')
              return ok({ notes: [], total_notes: likes + reblogs + replies })
            const page = notesPage(req, post.id, post.replyNotes ?? [])
            const total = replies + (post.replyNotes?.length ?? 0)
            return ok({ ...page, rollup_notes: [], total_notes: total, total_likes: likes, total_reblogs: reblogs })
          }),
        ),
      ],
    ],
    () => blogError(404, 0, 'Not Found'),
  )

  return {
    oauth,
    ...server,
    state,
    /** The next matching request (by `METHOD /path`) answers this error instead. */
    failNextError(status: number, code: number, detail: string, headers?: Record<string, string>, path?: RegExp) {
      state.failures.push({ reply: blogError(status, code, detail, headers), ...(path ? { path } : {}) })
    },
    /** The access token stops working (as after its expiry). */
    expireAccessToken() {
      state.accessToken = `${state.accessToken}-expired`
    },
  }
}

/** NPF's content limits and the multipart contract: each identifier has its part, of its kind. */
function checkContent(content: Array<Record<string, any>>, uploads: Map<string, { type: string; bytes: Buffer }>) {
  const count = (t: string) => content.filter((b) => b.type === t).length
  if (content.length > 1000) return blogError(400, 8001, 'Too many content blocks.')
  if (count('image') > 30) return blogError(400, 8001, 'Too many image blocks.')
  if (count('video') > 10 || count('link') > 10) return blogError(400, 8001, 'Too many video or link blocks.')
  for (const b of content) {
    if (b.type === 'text') {
      if (typeof b.text !== 'string') return blogError(400, 8001, 'A text block needs text.')
      if (Array.from(b.text).length > 4096) return blogError(400, 8001, 'A text block is limited to 4096 characters.')
    } else if (b.type === 'link') {
      if (typeof b.url !== 'string') return blogError(400, 8001, 'A link block needs a url.')
    } else if (b.type === 'image' || b.type === 'video') {
      const media = b.type === 'image' ? b.media?.[0] : b.media
      const part = uploads.get(media?.identifier)
      if (!part) return blogError(400, 8001, `No media part for identifier '${media?.identifier}'.`)
      if (b.type === 'image' && !isImage(part.bytes)) return blogError(400, 8005, 'The uploaded media is invalid.')
      if (b.type === 'video' && !part.type.startsWith('video/')) return blogError(400, 8005, 'Not a video.')
    } else return blogError(400, 8001, `Unknown block type '${b.type}'.`)
  }
  return null
}

/** A block as the network stores and serves it: uploaded media become media URLs. */
function stored(block: Record<string, any>, id: string): Record<string, any> {
  if (block.type === 'image')
    return {
      ...block,
      media: [
        {
          type: block.media[0].type,
          url: `https://64.media.tumblr.com/${id}/${block.media[0].identifier}.jpg`,
          width: 540,
          height: 405,
        },
      ],
    }
  if (block.type === 'video')
    return {
      ...block,
      provider: 'tumblr',
      media: { type: block.media.type, url: `https://va.media.tumblr.com/${id}.mp4` },
    }
  if (block.type === 'link') return { ...block, display_url: block.url }
  return block
}

export type BlogFake = Awaited<ReturnType<typeof startBlogFake>>
