/**
 * A loopback fake of the video-sharing network (YouTube Data API v3 + Google's token endpoint),
 * from the docs: bearer tokens checked (401 `authError` otherwise), resumable uploads (session URI
 * in Location; chunks that are multiples of 256 KiB except the last; 308 + Range while
 * incomplete; an empty PUT `bytes *\/total` reports progress or returns the finished video),
 * videos that stay `processing` for a few polls, statistics, delete. Knobs: failNext (any API
 * call), failChunk (the n-th next chunk PUT answers 503 and keeps nothing), expireToken. The
 * uploads playlist and the comment endpoints are in video-share-inbox.ts.
 */
import { oauthFake } from './oauth-provider'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'
import { videoInboxRoutes } from './video-share-inbox'

const KIB256 = 256 * 1024

export interface VideoShareVideo {
  id: string
  snippet: Record<string, any>
  status: Record<string, any>
  bytes: Buffer
  polls: number
  statistics: Record<string, string>
}

interface Session {
  id: string
  metadata: any
  total: number
  mimeType: string
  received: Buffer
  videoId?: string
}

export const googleError = (code: number, reason: string, message: string): FakeReply => ({
  status: code,
  json: { error: { code, message, errors: [{ message, domain: code === 403 ? 'youtube.quota' : 'global', reason }] } },
})

export async function startVideoShareFake(options: { channelId?: string } = {}) {
  const channelId = options.channelId ?? 'UC_channel_1'
  const state = {
    accessToken: 'yt_access_1',
    refreshToken: 'yt_refresh_1',
    tokenSerial: 1,
    channel: {
      id: channelId,
      snippet: { title: 'My Channel' },
      statistics: { subscriberCount: '1234', hiddenSubscriberCount: false, viewCount: '99', videoCount: '3' } as Record<
        string,
        unknown
      >,
    },
    sessions: [] as Session[],
    videos: [] as VideoShareVideo[],
    processingPolls: 1,
    /** Privacy the fake forces (an unaudited project), or null to keep what was asked. */
    forcePrivacy: null as string | null,
    /** The next processed video ends with this uploadStatus ('failed'/'rejected') and reason. */
    failProcessing: null as { uploadStatus: string; reason: string } | null,
    failNextReplies: [] as FakeReply[],
    /** Counts down on each chunk PUT; the one that reaches 0 answers 503 and keeps nothing. */
    failChunkIn: 0,
  }
  let serial = 0
  // Hosted connect: Google's authorization code flow with PKCE, the client in the form body.
  const oauth = oauthFake(
    { client: { id: 'yt_client', secret: 'yt_secret' }, clientAuth: 'post', pkce: true, expiresIn: 3599 },
    (issued) => {
      state.accessToken = issued.accessToken
      state.refreshToken = issued.refreshToken
    },
  )

  const authed = (req: FakeRequest): FakeReply | null => {
    if (req.headers.authorization !== `Bearer ${state.accessToken}`)
      return googleError(
        401,
        'authError',
        'Request had invalid authentication credentials. Expected OAuth 2 access token.',
      )
    return state.failNextReplies.shift() ?? null
  }

  const videoResource = (v: VideoShareVideo) => ({
    kind: 'youtube#video',
    id: v.id,
    snippet: v.snippet,
    status: v.status,
  })

  const sessionPut = (req: FakeRequest): FakeReply => {
    const session = state.sessions.find((s) => s.id === req.query.get('upload_id'))
    if (!session) return googleError(404, 'notFound', 'Upload session not found.')
    const range = req.headers['content-range'] ?? ''
    const done = (): FakeReply => ({
      status: 201,
      json: videoResource(state.videos.find((v) => v.id === session.videoId)!),
    })
    const progress = (): FakeReply => ({
      status: 308,
      headers: session.received.length > 0 ? { range: `bytes=0-${session.received.length - 1}` } : {},
    })
    if (/^bytes \*\/\d+$/.test(range)) return session.videoId ? done() : progress()
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range)
    if (!m) return googleError(400, 'badContent', 'Content-Range is required.')
    if (state.failChunkIn > 0 && --state.failChunkIn === 0) return { status: 503, body: 'Service Unavailable' }
    const [first, last, total] = [Number(m[1]), Number(m[2]), Number(m[3])]
    if (total !== session.total || last - first + 1 !== req.body.length)
      return googleError(400, 'badContent', 'Content-Range does not match the body.')
    if (first !== session.received.length) return progress()
    const isLast = last === total - 1
    if (!isLast && req.body.length % KIB256 !== 0)
      return googleError(400, 'badContent', 'Chunks must be multiples of 256 KiB.')
    session.received = Buffer.concat([session.received, req.body])
    if (!isLast) return progress()
    serial++
    const video: VideoShareVideo = {
      id: `vid${serial}AbCdEf`,
      snippet: { ...session.metadata.snippet, channelId, publishedAt: new Date().toISOString() },
      status: {
        uploadStatus: 'uploaded',
        privacyStatus: state.forcePrivacy ?? session.metadata.status?.privacyStatus ?? 'public',
        selfDeclaredMadeForKids: session.metadata.status?.selfDeclaredMadeForKids,
      },
      bytes: session.received,
      polls: 0,
      statistics: { viewCount: '10', likeCount: '2', commentCount: '1', favoriteCount: '0' },
    }
    state.videos.push(video)
    session.videoId = video.id
    return done()
  }

  const inbox = videoInboxRoutes({
    channelId,
    channelTitle: () => String(state.channel.snippet.title),
    authed,
    videoIds: () => state.videos.map((v) => v.id),
    uploads: () =>
      state.videos
        .map((v) => ({ id: v.id, publishedAt: String(v.snippet.publishedAt ?? '') }))
        .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt)),
    nextId: () => String(++serial),
    now: () => new Date(),
  })
  const server = await startFakeServer(
    [
      ...inbox.routes,
      ['GET', '/o/oauth2/v2/auth', (req) => oauth.authorize(req)],
      ['POST', '/revoke', (req) => oauth.revoke(req)],
      [
        'POST',
        '/token',
        (req) => {
          const form = req.form()
          if (form.get('grant_type') === 'authorization_code') return oauth.exchange(req)
          if (form.get('client_id') !== 'yt_client' || form.get('client_secret') !== 'yt_secret')
            return {
              status: 401,
              json: { error: 'invalid_client', error_description: 'The OAuth client was not found.' },
            }
          if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== state.refreshToken)
            return {
              status: 400,
              json: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
            }
          state.tokenSerial++
          state.accessToken = `yt_access_${state.tokenSerial}`
          return {
            json: {
              access_token: state.accessToken,
              expires_in: 3599,
              scope: 'https://www.googleapis.com/auth/youtube.upload',
              token_type: 'Bearer',
            },
          }
        },
      ],
      [
        'GET',
        '/youtube/v3/channels',
        (req) => {
          const refused = authed(req)
          if (refused) return refused
          const parts = (req.query.get('part') ?? '').split(',')
          const mine = req.query.get('mine') === 'true' || req.query.get('id') === channelId
          const item = {
            kind: 'youtube#channel',
            id: channelId,
            ...(parts.includes('snippet') ? { snippet: state.channel.snippet } : {}),
            ...(parts.includes('statistics') ? { statistics: state.channel.statistics } : {}),
            ...(parts.includes('contentDetails')
              ? { contentDetails: { relatedPlaylists: { likes: '', uploads: `UU${channelId.slice(2)}` } } }
              : {}),
          }
          return { json: { kind: 'youtube#channelListResponse', items: mine ? [item] : [] } }
        },
      ],
      [
        'POST',
        '/upload/youtube/v3/videos',
        (req) => {
          const refused = authed(req)
          if (refused) return refused
          if (req.query.get('uploadType') !== 'resumable' || req.query.get('part') !== 'snippet,status')
            return googleError(400, 'invalidParameter', 'uploadType=resumable and part are required.')
          // The resumable guide: the metadata body goes as `application/json; charset=UTF-8`.
          if (!/^application\/json;\s*charset=utf-8$/i.test(req.headers['content-type'] ?? ''))
            return googleError(400, 'badContent', 'Content-Type must be application/json; charset=UTF-8.')
          const total = Number(req.headers['x-upload-content-length'])
          const metadata = req.json()
          if (
            !metadata.snippet?.title ||
            /[<>]/.test(metadata.snippet.title) ||
            /[<>]/.test(metadata.snippet.description ?? '')
          )
            return googleError(400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.')
          const session: Session = {
            id: `sess${state.sessions.length + 1}`,
            metadata,
            total,
            mimeType: req.headers['x-upload-content-type'] ?? '',
            received: Buffer.alloc(0),
          }
          state.sessions.push(session)
          return {
            status: 200,
            headers: {
              location: `${server.url}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status&upload_id=${session.id}`,
            },
          }
        },
      ],
      ['PUT', '/upload/youtube/v3/videos', sessionPut],
      [
        'GET',
        '/youtube/v3/videos',
        (req) => {
          const refused = authed(req)
          if (refused) return refused
          const ids = (req.query.get('id') ?? '').split(',')
          const parts = (req.query.get('part') ?? '').split(',')
          const items = state.videos
            .filter((v) => ids.includes(v.id))
            .map((v) => {
              if (parts.includes('processingDetails')) {
                v.polls++
                if (v.status.uploadStatus === 'uploaded' && v.polls > state.processingPolls) {
                  if (state.failProcessing) {
                    v.status.uploadStatus = state.failProcessing.uploadStatus
                    v.status[state.failProcessing.uploadStatus === 'failed' ? 'failureReason' : 'rejectionReason'] =
                      state.failProcessing.reason
                    state.failProcessing = null
                  } else v.status.uploadStatus = 'processed'
                }
              }
              const processingStatus =
                v.status.uploadStatus === 'processed'
                  ? 'succeeded'
                  : v.status.uploadStatus === 'uploaded'
                    ? 'processing'
                    : 'failed'
              return {
                kind: 'youtube#video',
                id: v.id,
                ...(parts.includes('status') ? { status: v.status } : {}),
                ...(parts.includes('processingDetails') ? { processingDetails: { processingStatus } } : {}),
                ...(parts.includes('statistics') ? { statistics: v.statistics } : {}),
                ...(parts.includes('snippet') ? { snippet: v.snippet } : {}),
              }
            })
          return { json: { kind: 'youtube#videoListResponse', items } }
        },
      ],
      [
        'DELETE',
        '/youtube/v3/videos',
        (req) => {
          const refused = authed(req)
          if (refused) return refused
          const i = state.videos.findIndex((v) => v.id === req.query.get('id'))
          if (i < 0)
            return googleError(404, 'videoNotFound', 'The video that you are trying to delete cannot be found.')
          state.videos.splice(i, 1)
          return { status: 204 }
        },
      ],
    ],
    () => googleError(404, 'notFound', 'Not Found'),
  )

  return {
    oauth,
    ...server,
    state,
    /** Comments and replies on the channel's videos (video-share-inbox.ts). */
    inbox,
    failNext: (reply: FakeReply) => state.failNextReplies.push(reply),
    /** The n-th chunk PUT from now answers 503 (1 = the next one). */
    failChunk: (n = 1) => (state.failChunkIn = n),
    expireToken: () => (state.accessToken = `${state.accessToken}_expired`),
  }
}
