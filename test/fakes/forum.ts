/**
 * A loopback fake of the forum network's API (Reddit, https://www.reddit.com/dev/api and the OAuth2
 * and API rules pages of its wiki), on one server standing for both of its origins: the www origin
 * (the consent page at /api/v1/authorize, the token and revocation endpoints, HTTP Basic client
 * auth) and the API origin (Bearer tokens; 401 `{ message, error }` when wrong). It checks what the
 * documentation asks of clients: a descriptive User-Agent (a generic one is throttled with 429),
 * and it reports a rate-limit budget in X-Ratelimit-Used / -Remaining / -Reset, answering 429 once
 * it is spent. Subreddits with paging by `after`, submissions of every kind (answered with
 * `json.errors` lists as the network writes them), the media asset lease and its upload form
 * (served here; the real `action` is a scheme-less URL of the media store), image and video
 * submissions that appear only after processing, the account's submissions, /api/info and /api/del.
 */
import { oauthFake } from './oauth-provider'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'

export interface FakeSubreddit {
  display_name: string
  public_description: string
  submission_type: 'any' | 'self' | 'link'
  link_flair_required: boolean
  flairs: string[]
  where: Array<'subscriber' | 'moderator' | 'contributor'>
}

export interface FakeSubmission {
  id: string
  name: string
  subreddit: string
  title: string
  kind: 'self' | 'link' | 'image' | 'video' | 'gallery'
  selftext: string
  url: string | null
  poster: string | null
  gallery: Array<{ media_id: string; caption: string }>
  flair_id: string | null
  flair_text: string | null
  over_18: boolean
  spoiler: boolean
  send_replies: boolean
  created_utc: number
  score: number
  num_comments: number
  /** Reads of the account's submissions left before a media submission appears. */
  hiddenFor: number
  removed: boolean
}

export interface FakeAsset {
  asset_id: string
  key: string
  mimetype: string
  bytes: Buffer | null
}

/** A User-Agent of the documented form `<platform>:<app ID>:<version string>`, optionally `(by /u/name)`. */
export const DESCRIPTIVE_USER_AGENT = /^[\w.-]+:[\w.-]+:v?[\w.-]+( \(by \/u\/[\w-]+\))?$/

const apiError = (status: number, message: string, headers?: Record<string, string>): FakeReply => ({
  status,
  json: { message, error: status },
  ...(headers ? { headers } : {}),
})
/** A 200 whose `json.errors` lists one error, as the network answers a refused submission. */
const submitError = (code: string, message: string, field: string, extra: Record<string, unknown> = {}): FakeReply => ({
  json: { json: { errors: [[code, message, field]], ...extra } },
})
const listing = (children: Array<{ kind: string; data: unknown }>, after: string | null) => ({
  kind: 'Listing',
  data: { after, before: null, dist: children.length, children },
})
const isImage = (b: Buffer) =>
  (b[0] === 0xff && b[1] === 0xd8) ||
  b.subarray(0, 4).toString('latin1') === '\x89PNG' ||
  b.subarray(0, 3).toString('latin1') === 'GIF'
const isVideo = (b: Buffer) => b.subarray(4, 8).toString('latin1') === 'ftyp'

export async function startForumFake(options: { subreddits?: number; processingReads?: number; budget?: number } = {}) {
  const state = {
    accessToken: 'forum_access_1',
    refreshToken: 'forum_refresh_1',
    client: { id: 'forum-client', secret: 'forum-secret' },
    user: { id: 'a1b2c3', name: 'corner_bakery' },
    refreshCount: 0,
    subreddits: [
      {
        display_name: 'bakers',
        public_description: 'Bread and pastry',
        submission_type: 'any',
        link_flair_required: false,
        flairs: ['f-news', 'f-recipe'],
        where: ['subscriber'],
      },
      {
        display_name: 'SelfOnly',
        public_description: 'Text posts only',
        submission_type: 'self',
        link_flair_required: false,
        flairs: [],
        where: ['subscriber', 'moderator'],
      },
      {
        display_name: 'LinksOnly',
        public_description: '',
        submission_type: 'link',
        link_flair_required: false,
        flairs: [],
        where: ['contributor'],
      },
      {
        display_name: 'flaired',
        public_description: 'Flair required',
        submission_type: 'any',
        link_flair_required: true,
        flairs: ['f-1'],
        where: ['subscriber'],
      },
      ...Array.from({ length: options.subreddits ?? 0 }, (_, i) => ({
        display_name: `extra${i + 1}`,
        public_description: `Extra ${i + 1}`,
        submission_type: 'any' as const,
        link_flair_required: false,
        flairs: [],
        where: ['subscriber' as const],
      })),
    ] as FakeSubreddit[],
    submissions: [] as FakeSubmission[],
    assets: new Map<string, FakeAsset>(),
    processingReads: options.processingReads ?? 1,
    /** Requests left in the rate-limit window, and seconds to its end. */
    budget: options.budget ?? 600,
    resetSec: 420,
    /** The next submit answers RATELIMIT with this many seconds. */
    submitRatelimitSec: null as number | null,
    userAgents: [] as string[],
    clock: () => new Date(),
    sequence: 1000,
    pageSize: 100,
  }
  const next = () => (++state.sequence).toString(36)
  const oauth = oauthFake({ client: state.client, clientAuth: 'basic', pkce: false, expiresIn: 3600 }, (issued) => {
    state.accessToken = issued.accessToken
    state.refreshToken = issued.refreshToken
    state.user = { id: issued.identity.id, name: issued.identity.username }
  })
  const srOf = (name: string | null) =>
    state.subreddits.find((s) => s.display_name.toLowerCase() === (name ?? '').replace(/^\/?r\//i, '').toLowerCase())
  const permalink = (p: FakeSubmission) =>
    `/r/${p.subreddit}/comments/${p.id}/${p.title.toLowerCase().replace(/\W+/g, '_').slice(0, 40)}/`
  const postData = (p: FakeSubmission) => ({
    id: p.id,
    name: p.name,
    subreddit: p.subreddit,
    title: p.title,
    selftext: p.selftext,
    url: p.url ?? `https://www.reddit.com${permalink(p)}`,
    permalink: permalink(p),
    created_utc: p.created_utc,
    score: p.score,
    ups: p.score,
    num_comments: p.num_comments,
    over_18: p.over_18,
    spoiler: p.spoiler,
    author: state.user.name,
    is_self: p.kind === 'self',
  })

  /** The API origin's checks: User-Agent, budget, token. */
  const api =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    async (req: FakeRequest, params: string[]): Promise<FakeReply> => {
      const ua = req.headers['user-agent'] ?? ''
      state.userAgents.push(ua)
      if (!DESCRIPTIVE_USER_AGENT.test(ua)) return apiError(429, 'Too Many Requests')
      const limits = () => ({
        'x-ratelimit-used': String(Math.max(0, 600 - state.budget)),
        'x-ratelimit-remaining': String(Math.max(0, state.budget)),
        'x-ratelimit-reset': String(state.resetSec),
      })
      if (state.budget <= 0) return apiError(429, 'Too Many Requests', limits())
      state.budget--
      if (req.headers.authorization !== `Bearer ${state.accessToken}`) return apiError(401, 'Unauthorized', limits())
      const reply = await handler(req, params)
      return { ...reply, headers: { ...reply.headers, ...limits() } }
    }

  const basicOk = (req: FakeRequest) =>
    req.headers.authorization === `Basic ${Buffer.from(`${state.client.id}:${state.client.secret}`).toString('base64')}`

  const consentPage = (req: FakeRequest): FakeReply => {
    const q = req.query
    if (q.get('duration') !== 'permanent' && q.get('duration') !== 'temporary')
      return { status: 400, body: 'invalid duration' }
    const hidden = [...q.entries()]
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`)
      .join('')
    const page = `<!DOCTYPE html><html lang="en"><head><title>Authorize application</title></head><body>
<main><h1>An application would like to connect with your account</h1>
<p>Signed in as ${state.user.name}. Allow it to: ${q.get('scope') ?? ''}</p>
<form method="post" action="/api/v1/authorize">${hidden}
<button type="submit" name="authorize" value="Allow">Allow</button>
<button type="submit" name="authorize" value="Decline">Decline</button></form></main></body></html>`
    return { headers: { 'content-type': 'text/html; charset=utf-8' }, body: page }
  }

  const submitted = (req: FakeRequest): FakeReply => {
    const size = Math.min(Number(req.query.get('limit') ?? 25), 100)
    const visible = state.submissions.filter((p) => {
      if (p.removed) return false
      if (p.hiddenFor <= 0) return true
      p.hiddenFor--
      return false
    })
    const children = visible
      .reverse()
      .slice(0, size)
      .map((p) => ({ kind: 't3', data: postData(p) }))
    return { json: listing(children, null) }
  }

  const submit = async (req: FakeRequest): Promise<FakeReply> => {
    const f = req.form()
    if (f.get('api_type') !== 'json') return { json: { jquery: [] } }
    if (state.submitRatelimitSec !== null) {
      const sec = state.submitRatelimitSec
      state.submitRatelimitSec = null
      return submitError(
        'RATELIMIT',
        `Looks like you've been doing that a lot. Take a break for ${Math.ceil(sec / 60)} minutes before trying again.`,
        'ratelimit',
        { ratelimit: sec },
      )
    }
    const sr = srOf(f.get('sr'))
    if (!sr) return submitError('SUBREDDIT_NOEXIST', "that subreddit doesn't exist", 'sr')
    const title = f.get('title') ?? ''
    if (!title.trim()) return submitError('NO_TEXT', 'we need something here', 'title')
    if ([...title].length > 300) return submitError('TOO_LONG', 'this is too long (max: 300)', 'title')
    const kind = f.get('kind') as FakeSubmission['kind']
    if (kind === 'self' && sr.submission_type === 'link')
      return submitError('NO_SELFS', "that subreddit doesn't allow text posts", 'sr')
    if (kind !== 'self' && sr.submission_type === 'self')
      return submitError('NO_LINKS', 'that subreddit only allows text posts', 'sr')
    const text = f.get('text') ?? ''
    if ([...text].length > 40_000) return submitError('TOO_LONG', 'this is too long (max: 40000)', 'text')
    const url = f.get('url')
    if (kind === 'link' && !/^https?:\/\/\S+$/.test(url ?? ''))
      return submitError('BAD_URL', 'you should check that url', 'url')
    const assetAt = (u: string | null) =>
      [...state.assets.values()].find((a) => u === `${server.url}/media-upload/${a.key}` && a.bytes)
    if (kind === 'image' && !assetAt(url)?.mimetype.startsWith('image/'))
      return submitError('BAD_URL', 'you should check that url', 'url')
    if (kind === 'video') {
      if (!assetAt(url)?.mimetype.startsWith('video/'))
        return submitError('BAD_URL', 'you should check that url', 'url')
      if (!assetAt(f.get('video_poster_url'))?.mimetype.startsWith('image/'))
        return submitError('BAD_URL', 'you should check that url', 'video_poster_url')
    }
    if (!['self', 'link', 'image', 'video'].includes(kind))
      return submitError('INVALID_OPTION', "that option isn't valid", 'kind')
    const flair = checkFlair(sr, f.get('flair_id'))
    if (flair) return flair
    const post = create(sr, title, kind, {
      selftext: kind === 'self' ? text : '',
      url: kind === 'self' ? null : url,
      poster: f.get('video_poster_url'),
      flair_id: f.get('flair_id'),
      flair_text: f.get('flair_text'),
      over_18: f.get('nsfw') === 'true',
      spoiler: f.get('spoiler') === 'true',
      send_replies: f.get('sendreplies') !== 'false',
      hiddenFor: kind === 'image' || kind === 'video' ? state.processingReads : 0,
    })
    if (kind === 'image' || kind === 'video')
      return {
        json: {
          json: {
            errors: [],
            data: {
              user_submitted_page: `https://www.reddit.com/user/${state.user.name}/submitted/`,
              websocket_url: `wss://ws.fake/${post.id}`,
            },
          },
        },
      }
    return {
      json: {
        json: {
          errors: [],
          data: { url: `https://www.reddit.com${permalink(post)}`, drafts_count: 0, id: post.id, name: post.name },
        },
      },
    }
  }

  const checkFlair = (sr: FakeSubreddit, flairId: string | null): FakeReply | null => {
    if (flairId && !sr.flairs.includes(flairId))
      return submitError('INVALID_FLAIR_TEMPLATE_ID', 'That flair template is not valid here', 'flair')
    if (sr.link_flair_required && !flairId)
      return submitError('SUBMIT_VALIDATION_FLAIR_REQUIRED', 'Your post must contain post flair.', 'flair')
    return null
  }

  const create = (sr: FakeSubreddit, title: string, kind: FakeSubmission['kind'], extra: Partial<FakeSubmission>) => {
    const id = next()
    const post: FakeSubmission = {
      id,
      name: `t3_${id}`,
      subreddit: sr.display_name,
      title,
      kind,
      selftext: '',
      url: null,
      poster: null,
      gallery: [],
      flair_id: null,
      flair_text: null,
      over_18: false,
      spoiler: false,
      send_replies: true,
      created_utc: Math.floor(state.clock().getTime() / 1000),
      score: 1,
      num_comments: 0,
      hiddenFor: 0,
      removed: false,
      ...extra,
    }
    state.submissions.push(post)
    return post
  }

  const server = await startFakeServer(
    [
      ['GET', '/api/v1/authorize', (req) => consentPage(req)],
      [
        'POST',
        '/api/v1/authorize',
        (req) => {
          const form = req.form()
          oauth.setConsent(form.get('authorize') === 'Allow' ? 'approve' : 'deny')
          form.delete('authorize')
          return oauth.authorize({ ...req, query: form })
        },
      ],
      [
        'POST',
        '/api/v1/access_token',
        (req) => {
          if (!basicOk(req)) return { status: 401, json: { message: 'Unauthorized', error: 401 } }
          const form = req.form()
          if (form.get('grant_type') === 'authorization_code') return oauth.exchange(req)
          if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== state.refreshToken)
            return { status: 400, json: { error: 'invalid_grant' } }
          state.refreshCount++
          state.accessToken = `forum_access_${state.refreshCount + 1}`
          return {
            json: { access_token: state.accessToken, token_type: 'bearer', expires_in: 3600, scope: 'identity submit' },
          }
        },
      ],
      [
        'POST',
        '/api/v1/revoke_token',
        (req) => {
          if (!basicOk(req)) return { status: 401, json: { message: 'Unauthorized', error: 401 } }
          oauth.revoke(req)
          // The network answers 204 whether or not it knew the token.
          return { status: 204 }
        },
      ],
      ['GET', '/api/v1/me', api(() => ({ json: { name: state.user.name, id: state.user.id, link_karma: 10 } }))],
      [
        'GET',
        /^\/subreddits\/mine\/(subscriber|moderator|contributor)$/,
        api((req, [where]) => {
          const all = state.subreddits.filter((s) => s.where.includes(where as 'subscriber'))
          const size = Math.min(Number(req.query.get('limit') ?? 25), 100, state.pageSize)
          const after = req.query.get('after')
          const start = after ? all.findIndex((s) => `t5_${s.display_name}` === after) + 1 : 0
          const page = all.slice(start, start + size)
          const more = start + size < all.length
          const children = page.map((s) => ({
            kind: 't5',
            data: {
              display_name: s.display_name,
              name: `t5_${s.display_name}`,
              public_description: s.public_description,
              title: s.display_name,
              submission_type: s.submission_type,
            },
          }))
          return { json: listing(children, more ? `t5_${page.at(-1)!.display_name}` : null) }
        }),
      ],
      ['POST', '/api/submit', api(submit)],
      [
        'POST',
        '/api/submit_gallery_post.json',
        api((req) => {
          const body = req.json()
          if (state.submitRatelimitSec !== null) {
            const sec = state.submitRatelimitSec
            state.submitRatelimitSec = null
            return submitError(
              'RATELIMIT',
              `Take a break for ${Math.ceil(sec / 60)} minutes before trying again.`,
              'ratelimit',
              { ratelimit: sec },
            )
          }
          const sr = srOf(body.sr)
          if (!sr) return submitError('SUBREDDIT_NOEXIST', "that subreddit doesn't exist", 'sr')
          if (sr.submission_type === 'self')
            return submitError('NO_LINKS', 'that subreddit only allows text posts', 'sr')
          const title = String(body.title ?? '')
          if (!title.trim() || [...title].length > 300)
            return submitError('TOO_LONG', 'this is too long (max: 300)', 'title')
          const items: Array<{ media_id: string; caption: string }> = Array.isArray(body.items) ? body.items : []
          if (items.length < 2 || items.length > 20)
            return submitError('TOO_MANY_ITEMS', 'a gallery takes 2 to 20 items', 'items')
          for (const item of items) {
            const asset = state.assets.get(item.media_id)
            if (!asset?.bytes || !asset.mimetype.startsWith('image/'))
              return submitError('MEDIA_NOT_FOUND', 'media not found', 'items')
            if ((item.caption ?? '').length > 180)
              return submitError('TOO_LONG', 'this is too long (max: 180)', 'caption')
          }
          const flair = checkFlair(sr, body.flair_id ?? null)
          if (flair) return flair
          const post = create(sr, title, 'gallery', {
            gallery: items.map((i) => ({ media_id: i.media_id, caption: i.caption ?? '' })),
            flair_id: body.flair_id ?? null,
            flair_text: body.flair_text ?? null,
            over_18: body.nsfw === true,
            spoiler: body.spoiler === true,
            send_replies: body.sendreplies !== false,
          })
          return {
            json: { json: { errors: [], data: { url: `https://www.reddit.com/gallery/${post.id}`, id: post.name } } },
          }
        }),
      ],
      [
        'POST',
        '/api/media/asset.json',
        api((req) => {
          const f = req.form()
          const mimetype = f.get('mimetype') ?? ''
          if (!f.get('filepath') || !/^(image|video)\//.test(mimetype)) return apiError(400, 'Bad Request')
          const asset: FakeAsset = {
            asset_id: next(),
            key: `rte_images/${next()}/${f.get('filepath')}`,
            mimetype,
            bytes: null,
          }
          state.assets.set(asset.asset_id, asset)
          const fields = [
            { name: 'acl', value: 'private' },
            { name: 'key', value: asset.key },
            { name: 'Content-Type', value: mimetype },
            { name: 'x-amz-signature', value: `sig-${asset.asset_id}` },
          ]
          return {
            json: {
              args: { action: `${server.url}/media-upload`, fields },
              asset: {
                asset_id: asset.asset_id,
                processing_state: 'incomplete',
                payload: { filepath: f.get('filepath') },
                websocket_url: `wss://ws.fake/asset/${asset.asset_id}`,
              },
            },
          }
        }),
      ],
      [
        'POST',
        '/media-upload',
        async (req) => {
          const form = await req.formData()
          const asset = [...state.assets.values()].find((a) => a.key === form.get('key'))
          if (!asset || form.get('x-amz-signature') !== `sig-${asset.asset_id}`)
            return { status: 403, body: '<Error><Code>AccessDenied</Code></Error>' }
          const file = form.get('file')
          if (!(file instanceof Blob)) return { status: 400, body: '<Error><Code>InvalidArgument</Code></Error>' }
          const bytes = Buffer.from(await file.arrayBuffer())
          if (asset.mimetype.startsWith('image/') ? !isImage(bytes) : !isVideo(bytes))
            return {
              status: 400,
              body: '<Error><Code>InvalidArgument</Code><Message>not the declared type</Message></Error>',
            }
          asset.bytes = bytes
          return {
            status: 201,
            headers: { 'content-type': 'application/xml' },
            body: `<PostResponse><Location>${server.url}/media-upload/${asset.key}</Location><Key>${asset.key}</Key></PostResponse>`,
          }
        },
      ],
      [
        'GET',
        /^\/user\/([^/]+)\/submitted$/,
        api((req, [name]) => (name === state.user.name ? submitted(req) : apiError(404, 'Not Found'))),
      ],
      [
        'GET',
        '/api/info',
        api((req) => {
          const ids = (req.query.get('id') ?? '').split(',')
          const children = state.submissions
            .filter((p) => ids.includes(p.name) && !p.removed)
            .map((p) => ({ kind: 't3', data: postData(p) }))
          return { json: listing(children, null) }
        }),
      ],
      [
        'POST',
        '/api/del',
        api((req) => {
          const post = state.submissions.find((p) => p.name === req.form().get('id'))
          if (post) post.removed = true
          return { json: {} }
        }),
      ],
    ],
    () => apiError(404, 'Not Found'),
  )

  return {
    oauth,
    ...server,
    state,
    /** The access token stops working (as after its hour, or a revocation). */
    expireAccessToken() {
      state.accessToken = `${state.accessToken}-expired`
    },
    visible: () => state.submissions.filter((p) => !p.removed),
  }
}

export type ForumFake = Awaited<ReturnType<typeof startForumFake>>
