/**
 * A loopback fake of the page network's Graph API (Facebook Pages), from its reference: a Page
 * token in the Authorization header (code 190 when wrong), JSON bodies, `{ error: { message, type,
 * code, error_subcode, fbtrace_id } }` on failure, feed posts, photos (published or not), videos
 * that process for a few polls, reels and stories through the resumable upload (`file_url`
 * header), permalinks, counts and insights. Media by URL are really fetched and their bytes checked.
 * Facebook Login for hosted connect: the dialog, the code exchange, the long-lived token exchange
 * (`fb_exchange_token`, a GET with the client's id and secret) and `/me/accounts` with the member's
 * Pages (the fake's own Page and `otherPages`), each with a Page token, paged 100 at a time. The
 * inbox endpoints (published posts, comments, replies, hide, delete, like, tagged) are in
 * social-graph-inbox.ts.
 */
import { randomBytes } from 'node:crypto'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'
import { oauthFake } from './oauth-provider'
import { pageInboxRoutes } from './social-graph-inbox'

const V = 'v23.0'

export interface GraphPost {
  id: string
  message: string
  link: string | null
  attached: string[]
  kind: 'status' | 'photo' | 'album' | 'video' | 'reel' | 'story'
  createdTime: string
}

export interface GraphMedia {
  id: string
  kind: 'photo' | 'video'
  url: string
  bytes: Buffer
  published: boolean
  altText: string | null
  pollsLeft: number
  failProcessing: boolean
  /** The upload expired before the network processed it (`video_status: expired`). */
  expired?: boolean
}

const graphError = (status: number, code: number, message: string, extra: Record<string, unknown> = {}): FakeReply => ({
  status,
  json: {
    error: {
      message,
      type: code === 190 ? 'OAuthException' : 'GraphMethodException',
      code,
      fbtrace_id: 'AbCdEf',
      ...extra,
    },
  },
})

const isImage = (b: Buffer) => (b[0] === 0xff && b[1] === 0xd8) || b.subarray(0, 4).toString('latin1') === '\x89PNG'
const isMp4 = (b: Buffer) => b.subarray(4, 8).toString('latin1') === 'ftyp'

export interface ManagedPage {
  id: string
  name: string
  token: string
  tasks: string[]
}

export async function startSocialGraphFake(
  options: {
    pageId?: string
    pageName?: string
    token?: string
    processingPolls?: number
    /** More Pages the signed-in member manages (hosted connect's chooser). */
    otherPages?: ManagedPage[]
  } = {},
) {
  const pageId = options.pageId ?? '1010'
  const state = {
    pageId,
    pageName: options.pageName ?? 'Corner Bakery',
    token: options.token ?? 'EAAPageToken',
    followers: 1234,
    processingPolls: options.processingPolls ?? 2,
    posts: new Map<string, GraphPost>(),
    media: new Map<string, GraphMedia>(),
    counts: new Map<string, { reactions: number; comments: number; shares: number; views: number | null }>(),
    failures: [] as Array<{ path?: RegExp; reply: FakeReply }>,
    clock: () => new Date(),
    sequence: 100,
  }
  const nextId = () => String(++state.sequence)
  // Facebook Login: the member's short-lived token (code exchange), then the long-lived one.
  const login = { shortLived: new Set<string>(), longLived: null as string | null }
  const oauth = oauthFake(
    { client: { id: 'fb-app', secret: 'fb-secret' }, clientAuth: 'post', pkce: false, expiresIn: 3600 },
    (issued) => login.shortLived.add(issued.accessToken),
  )
  const managedPages = (): ManagedPage[] => [
    { id: pageId, name: state.pageName, token: state.token, tasks: ['MANAGE', 'CREATE_CONTENT', 'MODERATE'] },
    ...(options.otherPages ?? []),
  ]
  const longLivedExchange = (req: FakeRequest): FakeReply => {
    const q = req.query
    if (q.get('client_id') !== 'fb-app' || q.get('client_secret') !== 'fb-secret')
      return graphError(400, 1, 'Error validating client secret.')
    const token = q.get('fb_exchange_token') ?? ''
    if (q.get('grant_type') !== 'fb_exchange_token' || !login.shortLived.delete(token))
      return graphError(400, 190, 'Invalid OAuth access token - Cannot parse access token')
    login.longLived = `EAALong${randomBytes(6).toString('hex')}`
    return { json: { access_token: login.longLived, token_type: 'bearer', expires_in: 5_183_944 } }
  }
  const meAccounts = (req: FakeRequest): FakeReply => {
    if (!login.longLived || req.headers.authorization !== `Bearer ${login.longLived}`)
      return graphError(400, 190, 'Error validating access token: the token is not a long-lived user token.')
    const all = managedPages()
    const start = Number(req.query.get('after') ?? 0)
    const limit = Math.min(Number(req.query.get('limit') ?? 25), 100)
    const slice = all.slice(start, start + limit)
    const more = start + limit < all.length
    return {
      json: {
        data: slice.map((p) => ({ id: p.id, name: p.name, access_token: p.token, tasks: p.tasks, category: 'Bakery' })),
        paging: {
          cursors: { before: String(start), after: String(start + limit) },
          ...(more ? { next: `https://graph.facebook.com/${V}/me/accounts?after=${start + limit}` } : {}),
        },
      },
    }
  }
  const when = () =>
    state
      .clock()
      .toISOString()
      .replace(/\.\d{3}Z$/, '+0000')

  const authorized = (req: FakeRequest, scheme = 'Bearer') => req.headers.authorization === `${scheme} ${state.token}`
  const pull = async (url: string, check: (b: Buffer) => boolean): Promise<Buffer | null> => {
    const res = await fetch(url)
    if (!res.ok) return null
    const bytes = Buffer.from(await res.arrayBuffer())
    return check(bytes) ? bytes : null
  }
  const addPost = (p: Omit<GraphPost, 'id' | 'createdTime'>, id = `${pageId}_${nextId()}`) => {
    const post = { ...p, id, createdTime: when() }
    state.posts.set(id, post)
    state.counts.set(id, { reactions: 0, comments: 0, shares: 0, views: null })
    return post
  }

  /** Wraps a handler: injected failures first, then the token. */
  const guarded =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>, scheme = 'Bearer') =>
    async (req: FakeRequest, params: string[]): Promise<FakeReply> => {
      const i = state.failures.findIndex((f) => !f.path || f.path.test(`${req.method} ${req.path}`))
      if (i >= 0) return state.failures.splice(i, 1)[0]!.reply
      if (!authorized(req, scheme))
        return graphError(
          400,
          190,
          'Error validating access token: The session has been invalidated because the user changed their password.',
          { error_subcode: 460 },
        )
      return handler(req, params)
    }

  const onPage = (_req: FakeRequest, params: string[]) =>
    params[0] === pageId
      ? null
      : graphError(400, 100, `Unsupported post request. Object with ID '${params[0]}' does not exist`, {
          error_subcode: 33,
        })

  const videoStatus = (m: GraphMedia, kind: 'video' | 'reel') => {
    if (m.expired) return { video_status: 'expired', processing_phase: { status: 'not_started' } }
    if (m.failProcessing)
      return {
        video_status: 'error',
        processing_phase: { status: 'error', errors: [{ code: 1363008, message: 'The video file is corrupt.' }] },
      }
    if (m.pollsLeft > 0) {
      m.pollsLeft--
      return {
        video_status: 'processing',
        processing_phase: { status: 'in_progress' },
        publishing_phase: { status: 'not_started' },
      }
    }
    return {
      video_status: 'ready',
      processing_phase: { status: 'complete' },
      ...(kind === 'reel' ? { publishing_phase: { status: 'complete' } } : {}),
    }
  }

  const deletePost = (id: string): FakeReply =>
    state.posts.delete(id)
      ? { json: { success: true } }
      : graphError(400, 100, `Object with ID '${id}' does not exist`, { error_subcode: 33 })
  const inbox = pageInboxRoutes({
    pageId,
    pageName: () => state.pageName,
    guarded: (handler) => guarded(handler),
    posts: () => [...state.posts.values()],
    counts: (id) => state.counts.get(id),
    deletePost,
    nextId,
    now: () => state.clock(),
    url: () => server.url,
  })
  const server = await startFakeServer(
    [
      ...inbox.routes,
      ['GET', `/${V}/dialog/oauth`, (req) => oauth.authorize(req)],
      ['POST', `/${V}/oauth/access_token`, (req) => oauth.exchange(req)],
      ['GET', `/${V}/oauth/access_token`, longLivedExchange],
      ['GET', `/${V}/me/accounts`, meAccounts],
      [
        'POST',
        new RegExp(`^/${V}/([^/]+)/feed$`),
        guarded((req, p) => {
          const bad = onPage(req, p)
          if (bad) return bad
          const body = req.json()
          const attached: string[] = (body.attached_media ?? []).map((a: { media_fbid: string }) => a.media_fbid)
          for (const id of attached)
            if (!state.media.get(id) || state.media.get(id)!.published)
              return graphError(400, 100, `Invalid attached_media: ${id}`)
          if (!body.message && !body.link && attached.length === 0)
            return graphError(400, 100, 'Missing message or attachment.')
          for (const existing of state.posts.values()) {
            if (existing.message && existing.message === body.message && existing.kind === 'status' && !body.link)
              return graphError(400, 506, 'Duplicate status message')
          }
          for (const id of attached) state.media.get(id)!.published = true
          const post = addPost({
            message: body.message ?? '',
            link: body.link ?? null,
            attached,
            kind: attached.length ? 'album' : 'status',
          })
          return { json: { id: post.id } }
        }),
      ],
      [
        'GET',
        new RegExp(`^/${V}/([^/]+)/feed$`),
        guarded((req) => {
          const since = Number(req.query.get('since') ?? 0)
          const limit = Number(req.query.get('limit') ?? 25)
          const data = [...state.posts.values()]
            .filter((p) => Date.parse(p.createdTime.replace('+0000', 'Z')) / 1000 >= since && p.kind !== 'story')
            .reverse()
            .slice(0, limit)
            .map((p) => ({
              id: p.id,
              message: p.message || undefined,
              created_time: p.createdTime,
              permalink_url: `https://www.facebook.com/${p.id}`,
            }))
          return { json: { data, paging: {} } }
        }),
      ],
      [
        'POST',
        new RegExp(`^/${V}/([^/]+)/photos$`),
        guarded(async (req, p) => {
          const bad = onPage(req, p)
          if (bad) return bad
          const body = req.json()
          const bytes = await pull(body.url, isImage)
          if (!bytes) return graphError(400, 324, 'Missing or invalid image file', { error_subcode: 1366046 })
          const id = nextId()
          const published = body.published !== false
          state.media.set(id, {
            id,
            kind: 'photo',
            url: body.url,
            bytes,
            published,
            altText: body.alt_text_custom ?? null,
            pollsLeft: 0,
            failProcessing: false,
          })
          if (!published) return { json: { id } }
          const post = addPost({ message: body.caption ?? '', link: null, attached: [id], kind: 'photo' })
          return { json: { id, post_id: post.id } }
        }),
      ],
      [
        'POST',
        new RegExp(`^/${V}/([^/]+)/videos$`),
        guarded(async (req, p) => {
          const bad = onPage(req, p)
          if (bad) return bad
          const body = req.json()
          const bytes = await pull(body.file_url, isMp4)
          if (!bytes) return graphError(400, 352, "The video file you selected is in a format that we don't support.")
          const id = nextId()
          state.media.set(id, {
            id,
            kind: 'video',
            url: body.file_url,
            bytes,
            published: true,
            altText: null,
            pollsLeft: state.processingPolls,
            failProcessing: false,
          })
          addPost({ message: body.description ?? '', link: null, attached: [id], kind: 'video' }, id)
          return { json: { id } }
        }),
      ],
      [
        'POST',
        new RegExp(`^/${V}/([^/]+)/(video_reels|video_stories)$`),
        guarded((req, p) => {
          const bad = onPage(req, p)
          if (bad) return bad
          const body = req.json()
          if (body.upload_phase === 'start') {
            const id = nextId()
            state.media.set(id, {
              id,
              kind: 'video',
              url: '',
              bytes: Buffer.alloc(0),
              published: false,
              altText: null,
              pollsLeft: state.processingPolls,
              failProcessing: false,
            })
            return { json: { video_id: id, upload_url: `${server.url}/rupload/${V}/${id}` } }
          }
          const m = state.media.get(String(body.video_id))
          if (body.upload_phase !== 'finish' || !m || m.bytes.length === 0)
            return graphError(400, 100, 'Invalid upload phase or video not uploaded.')
          m.published = true
          if (p[1] === 'video_stories') {
            const post = addPost({ message: '', link: null, attached: [m.id], kind: 'story' })
            return { json: { success: true, post_id: post.id } }
          }
          if (body.video_state !== 'PUBLISHED') return graphError(400, 100, 'video_state must be PUBLISHED or DRAFT.')
          addPost({ message: body.description ?? '', link: null, attached: [m.id], kind: 'reel' }, m.id)
          return { json: { success: true } }
        }),
      ],
      [
        'POST',
        new RegExp(`^/rupload/${V}/([^/]+)$`),
        guarded(async (req, p) => {
          const m = state.media.get(p[0]!)
          if (!m) return graphError(400, 100, 'Unknown video.')
          const bytes = await pull(req.headers.file_url ?? '', isMp4)
          if (!bytes)
            return {
              status: 400,
              json: { debug_info: { type: 'ProcessingFailedError', message: 'Request processing failed' } },
            }
          m.url = req.headers.file_url!
          m.bytes = bytes
          return { json: { success: true } }
        }, 'OAuth'),
      ],
      [
        'POST',
        new RegExp(`^/${V}/([^/]+)/photo_stories$`),
        guarded((req, p) => {
          const bad = onPage(req, p)
          if (bad) return bad
          const m = state.media.get(String(req.json().photo_id))
          if (!m || m.published) return graphError(400, 100, 'Invalid photo_id.')
          m.published = true
          const post = addPost({ message: '', link: null, attached: [m.id], kind: 'story' })
          return { json: { success: true, post_id: post.id } }
        }),
      ],
      [
        'GET',
        new RegExp(`^/${V}/([^/]+)/insights$`),
        guarded((req, p) => {
          const c = state.counts.get(p[0]!)
          if (!c || c.views === null || req.query.get('metric') !== 'post_total_media_view_unique')
            return graphError(400, 100, '(#100) The value must be a valid insights metric')
          return {
            json: {
              data: [{ name: 'post_total_media_view_unique', period: 'lifetime', values: [{ value: c.views }] }],
            },
          }
        }),
      ],
      [
        'GET',
        new RegExp(`^/${V}/([^/]+)$`),
        guarded((req, p) => {
          const id = p[0]!
          const fields = req.query.get('fields') ?? ''
          if (id === pageId)
            return {
              json: {
                id: pageId,
                ...(fields.includes('name') ? { name: state.pageName } : {}),
                ...(fields.includes('followers_count') ? { followers_count: state.followers } : {}),
              },
            }
          const post = state.posts.get(id)
          const media = state.media.get(id)
          if (!post && !media)
            return graphError(400, 100, `Object with ID '${id}' does not exist`, { error_subcode: 33 })
          const out: Record<string, unknown> = { id }
          if (fields.includes('status') && media)
            out.status = videoStatus(media, post?.kind === 'reel' ? 'reel' : 'video')
          if (fields.includes('permalink_url'))
            out.permalink_url =
              post?.kind === 'video' || post?.kind === 'reel'
                ? `/${state.pageName.replace(/\s/g, '')}/videos/${id}/`
                : `https://www.facebook.com/${id}`
          const c = state.counts.get(id)
          if (c && fields.includes('reactions')) out.reactions = { data: [], summary: { total_count: c.reactions } }
          if (c && fields.includes('comments')) out.comments = { data: [], summary: { total_count: c.comments } }
          if (c && fields.includes('shares') && c.shares > 0) out.shares = { count: c.shares }
          return { json: out }
        }),
      ],
      ['DELETE', new RegExp(`^/${V}/([^/]+)$`), guarded((_req, p) => deletePost(p[0]!))],
    ],
    () => graphError(400, 2500, 'Unknown path components'),
  )

  return {
    ...server,
    state,
    oauth,
    /** The inbox: comments and replies on the Page's posts, and posts that tag the Page (social-graph-inbox.ts). */
    inbox,
    /** The next matching request (`METHOD /path` against `path`) gets this answer instead. */
    failNext(reply: FakeReply, path?: RegExp) {
      state.failures.push({ reply, ...(path ? { path } : {}) })
    },
    failNextGraph(
      status: number,
      code: number,
      message: string,
      extra: Record<string, unknown> = {},
      path?: RegExp,
      headers?: Record<string, string>,
    ) {
      state.failures.push({
        reply: { ...graphError(status, code, message, extra), ...(headers ? { headers } : {}) },
        ...(path ? { path } : {}),
      })
    },
    expireToken() {
      state.token = `${state.token}-revoked`
    },
    postsOfKind: (kind: GraphPost['kind']) => [...state.posts.values()].filter((p) => p.kind === kind),
  }
}

export type SocialGraphFake = Awaited<ReturnType<typeof startSocialGraphFake>>
