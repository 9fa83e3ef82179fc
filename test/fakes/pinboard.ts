/**
 * A loopback fake of the pinboard network's API v5 (Pinterest), from its OpenAPI description:
 * Bearer tokens (401 `{ code, message }` when wrong), the OAuth token endpoint (HTTP Basic client
 * auth, form body, optionally rotating the refresh token), user account, boards with bookmark
 * pagination, pins (image URLs really fetched and checked), video media registration with a
 * presigned multipart upload served by the fake itself, processing for a few polls, pin
 * analytics, delete, rate limiting with its headers.
 */
import { oauthFake } from './oauth-provider'
import { listPins } from './pinboard-list'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'

export interface FakePin {
  id: string
  board_id: string
  title: string | null
  description: string
  link: string | null
  alt_text: string | null
  created_at: string
  media_source: Record<string, any>
  images: Buffer[]
}

export interface FakeMedia {
  media_id: string
  status: 'registered' | 'processing' | 'succeeded' | 'failed'
  parameters: Record<string, string>
  bytes: Buffer | null
  pollsLeft: number
  fail: boolean
}

const error = (status: number, code: number, message: string, headers?: Record<string, string>): FakeReply => ({
  status,
  json: { code, message },
  ...(headers ? { headers } : {}),
})
const isImage = (b: Buffer) => (b[0] === 0xff && b[1] === 0xd8) || b.subarray(0, 4).toString('latin1') === '\x89PNG'

export async function startPinboardFake(
  options: { boards?: number; processingPolls?: number; rotateRefreshToken?: boolean } = {},
) {
  const state = {
    accessToken: 'pina_access_1',
    refreshToken: 'pinr_refresh_1',
    client: { id: 'pin-client', secret: 'pin-secret' },
    rotateRefreshToken: options.rotateRefreshToken ?? false,
    refreshCount: 0,
    maxPageSize: 250,
    // Board and pin ids are digit strings (OpenAPI: pattern ^\\d+$).
    boards: Array.from({ length: options.boards ?? 3 }, (_, i) => ({
      id: String(549755813001 + i),
      name: `Board ${i + 1}`,
      privacy: i === 0 ? 'SECRET' : 'PUBLIC',
    })),
    pins: new Map<string, FakePin>(),
    media: new Map<string, FakeMedia>(),
    analytics: new Map<string, { IMPRESSION: number; SAVE: number }>(),
    processingPolls: options.processingPolls ?? 2,
    failures: [] as Array<{ path?: RegExp; reply: FakeReply }>,
    clock: () => new Date(),
    sequence: 5000,
  }
  const next = () => String(++state.sequence)
  // Hosted connect: authorization code (no PKCE documented), the client with HTTP Basic.
  const oauth = oauthFake(
    { client: state.client, clientAuth: 'basic', pkce: false, expiresIn: 2_592_000 },
    (issued) => {
      state.accessToken = issued.accessToken
      state.refreshToken = issued.refreshToken
    },
  )

  const guarded =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    async (req: FakeRequest, params: string[]): Promise<FakeReply> => {
      const i = state.failures.findIndex((f) => !f.path || f.path.test(`${req.method} ${req.path}`))
      if (i >= 0) return state.failures.splice(i, 1)[0]!.reply
      if (req.headers.authorization !== `Bearer ${state.accessToken}`) return error(401, 2, 'Authentication failed.')
      return handler(req, params)
    }

  const fetchImage = async (url: string): Promise<Buffer | null> => {
    const res = await fetch(url)
    if (!res.ok) return null
    const bytes = Buffer.from(await res.arrayBuffer())
    return isImage(bytes) ? bytes : null
  }

  const server = await startFakeServer(
    [
      ['GET', '/oauth/', (req) => oauth.authorize(req)],
      [
        'POST',
        '/v5/oauth/token',
        (req) => {
          const expected = `Basic ${Buffer.from(`${state.client.id}:${state.client.secret}`).toString('base64')}`
          if (req.headers.authorization !== expected) return error(401, 1, 'Invalid client credentials.')
          if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
            return error(400, 1, 'Body must be form encoded.')
          const form = req.form()
          if (form.get('grant_type') === 'authorization_code') return oauth.exchange(req)
          if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== state.refreshToken)
            return error(400, 1, 'Invalid refresh token.')
          state.refreshCount++
          state.accessToken = `pina_access_${state.refreshCount + 1}`
          const body: Record<string, unknown> = {
            access_token: state.accessToken,
            token_type: 'bearer',
            expires_in: 2_592_000,
            scope: 'boards:read,pins:read,pins:write,user_accounts:read',
          }
          if (state.rotateRefreshToken) {
            state.refreshToken = `pinr_refresh_${state.refreshCount + 1}`
            Object.assign(body, { refresh_token: state.refreshToken, refresh_token_expires_in: 31_536_000 })
          }
          return { json: body }
        },
      ],
      [
        'GET',
        '/v5/user_account',
        guarded(() => ({
          json: {
            account_type: 'BUSINESS',
            id: '7788',
            username: 'cornerbakery',
            follower_count: 321,
            following_count: 4,
            board_count: state.boards.length,
            pin_count: state.pins.size,
          },
        })),
      ],
      [
        'GET',
        '/v5/boards',
        guarded((req) => {
          const size = Math.min(Number(req.query.get('page_size') ?? 25), state.maxPageSize)
          const start = Number(req.query.get('bookmark') ?? 0)
          const items = state.boards.slice(start, start + size)
          const more = start + size < state.boards.length
          return { json: { items, bookmark: more ? String(start + size) : null } }
        }),
      ],
      [
        'GET',
        /^\/v5\/boards\/([^/]+)\/pins$/,
        guarded((req, [boardId]) => {
          const size = Number(req.query.get('page_size') ?? 25)
          const items = [...state.pins.values()]
            .filter((p) => p.board_id === boardId)
            .reverse()
            .slice(0, size)
            .map(({ images: _i, ...pin }) => pin)
          return { json: { items, bookmark: null } }
        }),
      ],
      ['GET', '/v5/pins', guarded((req) => listPins(req, state))],
      [
        'POST',
        '/v5/pins',
        guarded(async (req) => {
          const body = req.json()
          if (typeof body.board_id !== 'string' || !/^\d+$/.test(body.board_id))
            return error(400, 1, 'Invalid parameters: board_id must match ^\\d+$.')
          if (!state.boards.some((b) => b.id === body.board_id)) return error(404, 2001, 'Board not found.')
          const source = body.media_source ?? {}
          const images: Buffer[] = []
          if (source.source_type === 'image_url' || source.source_type === 'multiple_image_urls') {
            const urls: string[] =
              source.source_type === 'image_url'
                ? [source.url]
                : (source.items ?? []).map((i: { url: string }) => i.url)
            if (source.source_type === 'multiple_image_urls' && (urls.length < 2 || urls.length > 5))
              return error(400, 1, 'Invalid parameters: items must have 2 to 5 images.')
            for (const url of urls) {
              const bytes = await fetchImage(url)
              if (!bytes) return error(400, 1, 'Sorry, we could not fetch the image.')
              images.push(bytes)
            }
          } else if (source.source_type === 'video_id') {
            const media = state.media.get(String(source.media_id))
            if (media?.status !== 'succeeded') return error(400, 1, 'Video media is not ready.')
            if (source.cover_image_url === undefined && source.cover_image_key_frame_time === undefined)
              return error(400, 1, 'A cover image is required for video pins.')
          } else return error(400, 1, 'Invalid media_source.')
          if (typeof body.description === 'string' && body.description.length > 800)
            return error(400, 1, 'Description is too long.')
          const pin: FakePin = {
            id: next(),
            board_id: body.board_id,
            title: body.title ?? null,
            description: body.description ?? '',
            link: body.link ?? null,
            alt_text: body.alt_text ?? null,
            created_at: state
              .clock()
              .toISOString()
              .replace(/\.\d{3}Z$/, ''),
            media_source: source,
            images,
          }
          state.pins.set(pin.id, pin)
          state.analytics.set(pin.id, { IMPRESSION: 0, SAVE: 0 })
          const { images: _i, ...out } = pin
          return { status: 201, json: out }
        }),
      ],
      [
        'DELETE',
        /^\/v5\/pins\/([^/]+)$/,
        guarded((_req, [id]) => (state.pins.delete(id!) ? { status: 204 } : error(404, 50, 'Pin not found.'))),
      ],
      [
        'GET',
        /^\/v5\/pins\/([^/]+)\/analytics$/,
        guarded((req, [id]) => {
          const a = state.analytics.get(id!)
          if (!a) return error(404, 50, 'Pin not found.')
          if (!req.query.get('start_date') || !req.query.get('end_date') || !req.query.get('metric_types'))
            return error(400, 1, 'Missing start_date, end_date or metric_types.')
          // metric_types is an array in `form` style without explode: one comma-separated value.
          const metrics = req.query.getAll('metric_types')
          if (
            metrics.length !== 1 ||
            metrics[0]!
              .split(',')
              .some(
                (m) =>
                  ![
                    'IMPRESSION',
                    'SAVE',
                    'PIN_CLICK',
                    'OUTBOUND_CLICK',
                    'VIDEO_MRC_VIEW',
                    'TOTAL_COMMENTS',
                    'TOTAL_REACTIONS',
                  ].includes(m),
              )
          )
            return error(400, 1, 'Invalid metric_types.')
          return { json: { all: { daily_metrics: [], lifetime_metrics: { ...a }, summary_metrics: { ...a } } } }
        }),
      ],
      [
        'POST',
        '/v5/media',
        guarded((req) => {
          if (req.json().media_type !== 'video') return error(400, 1, 'media_type must be video.')
          const id = next()
          const parameters = {
            key: `uploads/${id}.mp4`,
            policy: 'eyJwb2xpY3kiOiJ0ZXN0In0=',
            'x-amz-signature': `sig-${id}`,
            'x-amz-credential': 'AKIA/fake',
            'x-amz-algorithm': 'AWS4-HMAC-SHA256',
            'x-amz-date': '20261121T100000Z',
          }
          state.media.set(id, {
            media_id: id,
            status: 'registered',
            parameters,
            bytes: null,
            pollsLeft: state.processingPolls,
            fail: false,
          })
          return {
            status: 201,
            json: {
              media_id: id,
              media_type: 'video',
              upload_url: `${server.url}/upload/pinterest-media-upload`,
              upload_parameters: parameters,
            },
          }
        }),
      ],
      [
        'POST',
        '/upload/pinterest-media-upload',
        async (req) => {
          const form = await req.formData()
          const media = [...state.media.values()].find((m) => m.parameters.key === form.get('key'))
          if (!media) return { status: 403, body: '<Error><Code>AccessDenied</Code></Error>' }
          for (const [k, v] of Object.entries(media.parameters))
            if (form.get(k) !== v)
              return { status: 403, body: `<Error><Code>AccessDenied</Code><Message>${k} mismatch</Message></Error>` }
          const file = form.get('file')
          if (!(file instanceof Blob)) return { status: 400, body: '<Error><Code>InvalidArgument</Code></Error>' }
          media.bytes = Buffer.from(await file.arrayBuffer())
          media.status = 'processing'
          return { status: 204 }
        },
      ],
      [
        'GET',
        /^\/v5\/media\/([^/]+)$/,
        guarded((_req, [id]) => {
          const m = state.media.get(id!)
          if (!m) return error(404, 1, 'Media not found.')
          if (m.status === 'processing') {
            if (m.fail) m.status = 'failed'
            else if (m.pollsLeft-- <= 0) m.status = 'succeeded'
          }
          return { json: { media_id: m.media_id, media_type: 'video', status: m.status } }
        }),
      ],
    ],
    () => error(404, 404, 'Not found.'),
  )

  return {
    oauth,
    ...server,
    state,
    failNext(reply: FakeReply, path?: RegExp) {
      state.failures.push({ reply, ...(path ? { path } : {}) })
    },
    failNextError(status: number, code: number, message: string, headers?: Record<string, string>, path?: RegExp) {
      state.failures.push({ reply: error(status, code, message, headers), ...(path ? { path } : {}) })
    },
    /** The access token stops working (as after its expiry or a revocation). */
    expireAccessToken() {
      state.accessToken = `${state.accessToken}-expired`
    },
  }
}

export type PinboardFake = Awaited<ReturnType<typeof startPinboardFake>>
