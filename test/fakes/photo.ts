/**
 * A loopback photo network (Instagram Graph API content publishing), one per host: the page
 * network's Graph host (`SOCIALGRAPH_LOGIN`) or the photo network's own (`DIRECT_LOGIN`). Written
 * from the IG User Media / IG Container / media_publish / comments / insights references:
 * versioned paths, `access_token` in the query or form body (code 190 when wrong), containers that
 * really GET our media URL and check its bytes, stay IN_PROGRESS for some polls, then FINISHED (or
 * ERROR with its subcode as `status`), PUBLISHED once published; the account's media and stories
 * lists; alt_text on images only; reel audio on the Facebook-login host only; the 24 h publishing quota;
 * Graph error bodies; usage headers; the inbox endpoints (photo-inbox.ts). On the Facebook host, the audio search for reels (`/ig_audio`:
audio_type, user_id, search_query, cursor paging with `after` and a `next` link while more remain), and Facebook Login for hosted connect: the
 * dialog, the code exchange, the long-lived token (`fb_exchange_token`), and `/me/accounts` with
 * each Page's `instagram_business_account` (the fake's own account's Page and `otherPages`).
 */
import { randomBytes } from 'node:crypto'
import { startFakeServer, type FakeReply, type FakeRequest, type FakeRoute } from './fake-server'
import { oauthFake } from './oauth-provider'
import { photoInboxRoutes } from './photo-inbox'

export interface PhotoContainer {
  id: string
  params: Record<string, string>
  polls: number
  status: 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED'
  statusText: string | null
  mediaId: string | null
  /** Bytes the network pulled from our media URL. */
  fetched: { contentType: string; bytes: number } | null
}

export interface PhotoAudio {
  audio_id: string
  audio_type: 'music' | 'original_sound'
  title: string
  display_artist?: string
  ig_username?: string
  duration_in_ms?: number
}

/** The fake's catalogue: music with artists, and reel sounds with their creators. */
export const PHOTO_AUDIO: PhotoAudio[] = [
  {
    audio_id: '1790000000000101',
    audio_type: 'music',
    title: 'Morning Loaf',
    display_artist: 'The Crumbs',
    duration_in_ms: 30000,
  },
  {
    audio_id: '1790000000000102',
    audio_type: 'music',
    title: 'Harbour Lights',
    display_artist: 'Quay',
    duration_in_ms: 45500,
  },
  {
    audio_id: '1790000000000103',
    audio_type: 'music',
    title: 'Sourdough Sunrise',
    display_artist: 'The Crumbs',
    duration_in_ms: 61000,
  },
  {
    audio_id: '1790000000000104',
    audio_type: 'music',
    title: 'Night Market',
    display_artist: 'Lantern',
    duration_in_ms: 28000,
  },
  {
    audio_id: '1790000000000105',
    audio_type: 'music',
    title: 'Flour Power',
    display_artist: 'Quay',
    duration_in_ms: 33000,
  },
  { audio_id: '1780000000000201', audio_type: 'original_sound', title: 'Original audio', ig_username: 'bakerbob' },
]

export interface PhotoMedia {
  id: string
  containerId: string
  caption: string | null
  mediaType: string
  timestamp: string
  permalink: string
  comments: string[]
}

const graphError = (status: number, message: string, code: number, subcode?: number, userMsg?: string): FakeReply => ({
  status,
  json: {
    error: {
      message,
      type: code === 190 ? 'OAuthException' : 'IGApiException',
      code,
      ...(subcode ? { error_subcode: subcode } : {}),
      ...(userMsg ? { error_user_msg: userMsg } : {}),
      fbtrace_id: 'AbCdEf',
    },
  },
})

const igTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+0000')
const VERSIONED = /^\/v\d+\.\d+\/(.+)$/

export async function startPhotoFake(options: {
  host: 'facebook' | 'instagram'
  igUserId?: string
  username?: string
  token?: string
  processingPolls?: number
  now?: () => Date
  /** More Pages the signed-in member manages, with or without a professional account behind them. */
  otherPages?: Array<{ id: string; name: string; ig?: { id: string; username: string } }>
}) {
  const igUserId = options.igUserId ?? '17841400000000001'
  const state = {
    token: options.token ?? 'ig-token',
    processingPolls: options.processingPolls ?? 1,
    followers: 1234,
    containers: new Map<string, PhotoContainer>(),
    media: [] as PhotoMedia[],
    publishCalls: [] as string[],
    refreshCalls: 0,
    refusedComments: false,
    loseNextPublishAnswer: false,
    failNextMatching: [] as Array<{ path: RegExp; reply: FakeReply }>,
    metrics: { likes: 10, comments: 2, shares: 1, saved: 4, views: 300, reach: 250 } as Record<string, number>,
    /** content_publishing_limit: `config.quota_total` (the current reference's example: 50 per 86400 s), and posts counted as made elsewhere. */
    quotaTotal: 50,
    quotaUsedElsewhere: 0,
    /** Assets per `/ig_audio` page, and every query the search was asked. */
    audioPageSize: 2,
    audioQueries: [] as Array<Record<string, string>>,
  }
  let seq = 0
  const now = () => options.now?.() ?? new Date()
  const nextId = () => `179000000${String(++seq).padStart(8, '0')}`
  const params = (req: FakeRequest) => {
    const all = new URLSearchParams(req.query)
    if (req.method === 'POST' && req.body.length) for (const [k, v] of req.form()) all.set(k, v)
    return Object.fromEntries(all)
  }
  const authorized = (p: Record<string, string>) => p.access_token === state.token
  const headers = { 'x-app-usage': '{"call_count":1,"total_cputime":1,"total_time":1}' }

  /** The network cURLs the media URL when it builds the container. */
  async function pull(c: PhotoContainer) {
    const url = c.params.image_url ?? c.params.video_url
    const wantVideo = c.params.video_url !== undefined
    try {
      const res = await fetch(url!)
      const bytes = new Uint8Array(await res.arrayBuffer())
      const type = res.headers.get('content-type') ?? ''
      c.fetched = { contentType: type, bytes: bytes.byteLength }
      const ok =
        res.ok &&
        (wantVideo
          ? /^video\/(mp4|quicktime)/.test(type) && bytes.byteLength > 8
          : type.startsWith('image/jpeg') && bytes[0] === 0xff && bytes[1] === 0xd8)
      // IG Container ref: when status_code is ERROR, `status` is an error subcode.
      if (!ok) Object.assign(c, { status: 'ERROR', statusText: wantVideo ? '2207026' : '2207005' })
    } catch {
      Object.assign(c, { status: 'ERROR', statusText: '2207052' })
    }
  }

  async function createContainer(p: Record<string, string>): Promise<FakeReply> {
    if (p.media_type === 'CAROUSEL') {
      const children = (p.children ?? '').split(',').map((id) => state.containers.get(id))
      if (
        children.length < 2 ||
        children.some((c) => c?.params.is_carousel_item !== 'true' || c.status !== 'FINISHED')
      ) {
        return graphError(
          400,
          'Invalid parameter',
          100,
          2207028,
          'The carousel could not be created: its items are missing or not ready.',
        )
      }
    } else if (!p.image_url && !p.video_url) {
      return graphError(400, 'The parameter image_url or video_url is required.', 100)
    }
    if (p.media_type === 'VIDEO' && p.is_carousel_item !== 'true')
      return graphError(400, 'The VIDEO media type is no longer supported; use REELS.', 100, 2207023)
    // IG User Media ref: alt_text is for image posts; reels and stories are not supported.
    if (
      p.alt_text !== undefined &&
      (p.media_type === 'REELS' || p.media_type === 'STORIES' || p.media_type === 'VIDEO' || !p.image_url)
    )
      return graphError(400, 'Invalid parameter: alt_text is only supported for images.', 100)
    if (p.audio_configuration !== undefined && options.host !== 'facebook')
      return graphError(400, 'Invalid parameter: audio_configuration is not supported with Instagram Login.', 100)
    const c: PhotoContainer = {
      id: nextId(),
      params: p,
      polls: 0,
      status: 'IN_PROGRESS',
      statusText: null,
      mediaId: null,
      fetched: null,
    }
    state.containers.set(c.id, c)
    if (p.media_type !== 'CAROUSEL') await pull(c)
    return { json: { id: c.id }, headers }
  }

  /** API-published posts in the last 24 h (a carousel counts as one). */
  const quotaUsage = () =>
    state.quotaUsedElsewhere +
    state.media.filter((m) => now().getTime() - Date.parse(m.timestamp.replace('+0000', 'Z')) < 86_400_000).length

  function publish(p: Record<string, string>): FakeReply {
    state.publishCalls.push(p.creation_id ?? '')
    if (quotaUsage() >= state.quotaTotal)
      return graphError(
        400,
        'The user has reached the daily publishing limit.',
        9,
        2207042,
        'You reached the maximum number of posts allowed in 24 hours.',
      )
    const c = state.containers.get(p.creation_id ?? '')
    if (!c) return graphError(400, 'Unsupported post request.', 100, 33)
    if (c.status !== 'FINISHED')
      return graphError(
        400,
        'Media ID is not available',
        9007,
        2207027,
        'The media is not ready for publishing, please wait for a moment',
      )
    const m: PhotoMedia = {
      id: nextId(),
      containerId: c.id,
      caption: c.params.caption ?? null,
      mediaType: c.params.media_type ?? 'IMAGE',
      timestamp: igTime(now()),
      permalink: `https://photo.example/p/${seq}/`,
      comments: [],
    }
    Object.assign(c, { status: 'PUBLISHED', mediaId: m.id })
    state.media.unshift(m)
    if (state.loseNextPublishAnswer) {
      state.loseNextPublishAnswer = false
      return { status: 502, body: 'Bad Gateway' }
    }
    return { json: { id: m.id }, headers }
  }

  function read(id: string, p: Record<string, string>): FakeReply {
    if (id === 'me' && options.host === 'instagram')
      return { json: { user_id: igUserId, username: options.username ?? 'photo_user', id: '2680000000000001' } }
    if (id === igUserId)
      return { json: { id: igUserId, username: options.username ?? 'photo_user', followers_count: state.followers } }
    const c = state.containers.get(id)
    if (c) {
      if (c.status === 'IN_PROGRESS' && ++c.polls >= state.processingPolls) c.status = 'FINISHED'
      return {
        json: {
          id,
          status_code: c.status,
          ...(c.statusText
            ? { status: c.statusText }
            : {
                status:
                  c.status === 'FINISHED'
                    ? 'Finished: Media has been uploaded and it is ready to be published.'
                    : 'In Progress',
              }),
        },
      }
    }
    const m = state.media.find((x) => x.id === id)
    if (m) return { json: { id, permalink: m.permalink, caption: m.caption, timestamp: m.timestamp, fields: p.fields } }
    return graphError(400, `Unsupported get request. Object with ID '${id}' does not exist.`, 100, 33)
  }

  /** Instagram Audio API: Facebook-login host only; without search_query, every asset ("trending"). */
  function audioSearch(p: Record<string, string>): FakeReply {
    state.audioQueries.push(p)
    if (options.host !== 'facebook') return graphError(400, 'Unknown path components: /ig_audio', 2500)
    if (p.audio_type !== 'music' && p.audio_type !== 'original_sound')
      return graphError(400, '(#100) The parameter audio_type is required and must be music or original_sound.', 100)
    if (p.user_id !== igUserId) return graphError(400, '(#100) Invalid user_id.', 100)
    const words = (p.search_query ?? '').toLowerCase()
    const hits = PHOTO_AUDIO.filter(
      (a) =>
        a.audio_type === p.audio_type &&
        (words === '' || `${a.title} ${a.display_artist ?? ''} ${a.ig_username ?? ''}`.toLowerCase().includes(words)),
    )
    const from = p.after ? Number(Buffer.from(p.after, 'base64url').toString()) : 0
    if (!Number.isInteger(from) || from < 0) return graphError(400, '(#100) Invalid cursor.', 100)
    const data = hits.slice(from, from + state.audioPageSize)
    const cursor = (n: number) => Buffer.from(String(n)).toString('base64url')
    const end = from + data.length
    const next = end < hits.length ? `${server.url}/v23.0/ig_audio?after=${cursor(end)}` : undefined
    return {
      json: { data, paging: { cursors: { before: cursor(from), after: cursor(end) }, ...(next ? { next } : {}) } },
      headers,
    }
  }

  // Facebook Login (hosted connect): the long-lived token becomes the token the fake accepts.
  const shortLived = new Set<string>()
  const oauth = oauthFake(
    { client: { id: 'fb-app', secret: 'fb-secret' }, clientAuth: 'post', pkce: false, expiresIn: 3600 },
    (issued) => shortLived.add(issued.accessToken),
  )
  const facebookLogin: FakeRoute[] =
    options.host !== 'facebook'
      ? []
      : [
          ['GET', /^\/v\d+\.\d+\/dialog\/oauth$/, (req) => oauth.authorize(req)],
          ['POST', /^\/v\d+\.\d+\/oauth\/access_token$/, (req) => oauth.exchange(req)],
          [
            'GET',
            /^\/v\d+\.\d+\/oauth\/access_token$/,
            (req) => {
              const q = req.query
              if (q.get('client_id') !== 'fb-app' || q.get('client_secret') !== 'fb-secret')
                return graphError(400, 'Error validating client secret.', 1)
              if (q.get('grant_type') !== 'fb_exchange_token' || !shortLived.delete(q.get('fb_exchange_token') ?? ''))
                return graphError(400, 'Invalid OAuth access token - Cannot parse access token', 190)
              state.token = `EAALong${randomBytes(6).toString('hex')}`
              return { json: { access_token: state.token, token_type: 'bearer', expires_in: 5_183_944 } }
            },
          ],
          [
            'GET',
            /^\/v\d+\.\d+\/me\/accounts$/,
            (req) => {
              if (!authorized(params(req)))
                return graphError(400, 'Invalid OAuth access token - Cannot parse access token', 190)
              const pages = [
                { id: '1010', name: 'Corner Bakery', ig: { id: igUserId, username: options.username ?? 'bakery' } },
                ...(options.otherPages ?? []),
              ]
              const data = pages.map((p) => ({
                id: p.id,
                name: p.name,
                ...(p.ig ? { instagram_business_account: p.ig } : {}),
              }))
              return { json: { data, paging: { cursors: { before: '0', after: String(data.length) } } } }
            },
          ],
        ]

  const inbox = photoInboxRoutes({
    igUserId,
    username: () => options.username ?? 'photo_user',
    authorized,
    params,
    unauthorized: () => graphError(400, 'Invalid OAuth access token - Cannot parse access token', 190),
    media: () => state.media,
    nextId,
    now,
    url: () => server.url,
  })
  const server = await startFakeServer(
    [
      ...facebookLogin,
      ...inbox.routes,
      [
        'GET',
        '/refresh_access_token',
        (req) => {
          const p = params(req)
          state.refreshCalls++
          if (options.host !== 'instagram')
            return graphError(400, 'Unknown path components: /refresh_access_token', 2500)
          if (p.grant_type !== 'ig_refresh_token' || !authorized(p))
            return graphError(400, 'Error validating access token: Session has expired.', 190, 463)
          state.token = `${state.token}-r${state.refreshCalls}`
          return { json: { access_token: state.token, token_type: 'bearer', expires_in: 5_184_000 } }
        },
      ],
      [
        'GET',
        VERSIONED,
        (req, [rest]) => {
          const p = params(req)
          if (!authorized(p)) return graphError(400, 'Invalid OAuth access token - Cannot parse access token', 190)
          const hit = state.failNextMatching.findIndex((f) => f.path.test(req.path))
          if (hit >= 0) return state.failNextMatching.splice(hit, 1)[0]!.reply
          const [id, edge] = rest!.split('/')
          if (id === igUserId && (edge === 'media' || edge === 'stories')) {
            const list = state.media.filter((m) => (edge === 'stories') === (m.mediaType === 'STORIES'))
            return {
              json: { data: list.map((m) => ({ id: m.id, caption: m.caption ?? undefined, timestamp: m.timestamp })) },
            }
          }
          if (id === igUserId && edge === 'content_publishing_limit') {
            const fields = (p.fields ?? 'quota_usage').split(',')
            return {
              json: {
                data: [
                  {
                    quota_usage: quotaUsage(),
                    ...(fields.includes('config')
                      ? { config: { quota_total: state.quotaTotal, quota_duration: 86400 } }
                      : {}),
                  },
                ],
              },
            }
          }
          if (id === 'ig_audio' && !edge) return audioSearch(p)
          if (edge === 'insights') {
            if (!state.media.some((m) => m.id === id)) return graphError(400, 'Media does not exist', 100)
            return {
              json: {
                data: (p.metric ?? '').split(',').map((name) => ({
                  name,
                  period: 'lifetime',
                  values: [{ value: state.metrics[name] ?? 0 }],
                  id: `${id}/insights/${name}/lifetime`,
                })),
              },
            }
          }
          return read(id!, p)
        },
      ],
      [
        'POST',
        VERSIONED,
        async (req, [rest]) => {
          const p = params(req)
          if (!authorized(p)) return graphError(400, 'Invalid OAuth access token - Cannot parse access token', 190)
          const hit = state.failNextMatching.findIndex((f) => f.path.test(req.path))
          if (hit >= 0) return state.failNextMatching.splice(hit, 1)[0]!.reply
          const [id, edge] = rest!.split('/')
          if (id === igUserId && edge === 'media') return createContainer(p)
          if (id === igUserId && edge === 'media_publish') return publish(p)
          const m = state.media.find((x) => x.id === id)
          if (m && edge === 'comments') {
            if (state.refusedComments)
              return graphError(
                400,
                'Comments are disabled for this media.',
                100,
                2207001,
                'Commenting has been turned off for this post.',
              )
            m.comments.push(p.message ?? '')
            return { json: { id: nextId() } }
          }
          return graphError(400, 'Unsupported post request.', 100, 33)
        },
      ],
    ],
    () => graphError(400, 'Unknown path components', 2500),
  )

  return {
    ...server,
    igUserId,
    state,
    oauth,
    /** The inbox: comments (with replies) on the account's media, and media the account is tagged in. */
    inbox,
    /** The next request whose path matches answers with this instead. */
    failNext(path: RegExp, reply: FakeReply) {
      state.failNextMatching.push({ path, reply })
    },
    expireToken() {
      state.token = `${state.token}-revoked`
    },
    containers: () => [...state.containers.values()],
  }
}
