/**
 * A loopback fake of the short-video network's Content Posting API (TikTok), from its docs:
 * bearer tokens checked on every call (`access_token_invalid` otherwise), the form token endpoint
 * with rotating refresh tokens, creator_info, FILE_UPLOAD video init + chunked PUTs with
 * Content-Range, PHOTO init with PULL_FROM_URL (the fake really downloads our URLs), and a status
 * endpoint that stays PROCESSING_* for a few polls. Every answer is `{ data, error: { code,
 * message, log_id } }`.
 */
import { oauthFake } from './oauth-provider'
import { listVideos, type FakeVideo } from './short-video-list'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'

export interface ShortVideoPost {
  publishId: string
  kind: 'VIDEO' | 'PHOTO'
  postInfo: Record<string, any>
  sourceInfo: Record<string, any>
  /** Video bytes received so far (FILE_UPLOAD), or the photos downloaded (PULL_FROM_URL). */
  bytes: Buffer
  photos: Buffer[]
  polls: number
  status: string
  failReason?: string
  publicId?: string
}

const ok = (data: unknown, status = 200): FakeReply => ({
  status,
  json: { data, error: { code: 'ok', message: '', log_id: 'log_ok' } },
})
export const tiktokError = (status: number, code: string, message: string): FakeReply => ({
  status,
  json: { data: {}, error: { code, message, log_id: `log_${code}` } },
})

export async function startShortVideoFake(
  options: { openId?: string; username?: string; clientKey?: string; clientSecret?: string } = {},
) {
  const openId = options.openId ?? 'open_123'
  const state = {
    accessToken: 'tt_access_1',
    refreshToken: 'tt_refresh_1',
    tokenSerial: 1,
    creator: {
      creator_username: options.username ?? 'dancer',
      creator_nickname: 'Dancer',
      privacy_level_options: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      comment_disabled: false,
      duet_disabled: true,
      stitch_disabled: false,
      max_video_post_duration_sec: 600,
    } as Record<string, any>,
    posts: [] as ShortVideoPost[],
    /** The account's videos as the Display API lists them (newest last). */
    videos: [] as FakeVideo[],
    /** Scopes the user granted. */
    scopes: new Set(['user.info.basic', 'video.publish', 'video.list']),
    /** Polls a post stays PROCESSING_* before it completes. */
    processingPolls: 1,
    /** Whether completed posts get a public id (private posts never do). */
    givePublicId: true,
    failNextReplies: [] as Array<{ path?: string; reply: FakeReply }>,
    /** The next job ends FAILED with this reason. */
    failJobWith: null as string | null,
  }
  let serial = 0

  const authed = (req: FakeRequest): FakeReply | null => {
    if (req.headers.authorization !== `Bearer ${state.accessToken}`)
      return tiktokError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.')
    const i = state.failNextReplies.findIndex((f) => (!f.path && req.path !== '/video/') || f.path === req.path)
    if (i >= 0) return state.failNextReplies.splice(i, 1)[0]!.reply
    return null
  }
  // The Content Posting pages document exactly `application/json; charset=UTF-8`.
  const jsonBody = (req: FakeRequest) => {
    if (!/^application\/json;\s*charset=utf-8$/i.test(req.headers['content-type'] ?? ''))
      throw new Error(`expected Content-Type application/json; charset=UTF-8, got ${req.headers['content-type']}`)
    return req.json()
  }

  // Hosted connect: Login Kit for Web, the client as client_key / client_secret, open_id in the answer.
  const oauth = oauthFake(
    {
      client: { id: options.clientKey ?? 'tt_client', secret: options.clientSecret ?? 'tt_secret' },
      clientAuth: { idField: 'client_key', secretField: 'client_secret' },
      clientIdParam: 'client_key',
      pkce: false,
      expiresIn: 7200,
      answerFields: () => ({ open_id: openId, refresh_expires_in: 15552000, token_type: 'Bearer' }),
    },
    (issued) => {
      state.accessToken = issued.accessToken
      state.refreshToken = issued.refreshToken
    },
  )
  const server = await startFakeServer(
    [
      ['GET', '/v2/auth/authorize/', (req) => oauth.authorize(req)],
      ['POST', '/v2/oauth/revoke/', (req) => oauth.revoke(req)],
      [
        'POST',
        '/v2/oauth/token/',
        (req) => {
          const form = req.form()
          if (form.get('grant_type') === 'authorization_code') return oauth.exchange(req)
          if (
            form.get('client_key') !== (options.clientKey ?? 'tt_client') ||
            form.get('client_secret') !== (options.clientSecret ?? 'tt_secret')
          )
            return {
              status: 401,
              json: { error: 'invalid_client', error_description: 'Client key or secret is incorrect.', log_id: 'l1' },
            }
          if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== state.refreshToken)
            return {
              status: 400,
              json: { error: 'invalid_grant', error_description: 'Refresh token is invalid or expired.', log_id: 'l2' },
            }
          state.tokenSerial++
          state.accessToken = `tt_access_${state.tokenSerial}`
          state.refreshToken = `tt_refresh_${state.tokenSerial}`
          return {
            json: {
              access_token: state.accessToken,
              expires_in: 7200,
              open_id: openId,
              refresh_expires_in: 15552000,
              refresh_token: state.refreshToken,
              scope: 'user.info.basic,video.publish',
              token_type: 'Bearer',
            },
          }
        },
      ],
      [
        'GET',
        '/v2/user/info/',
        (req) =>
          authed(req) ??
          ok({ user: { open_id: openId, display_name: 'Dancer', username: state.creator.creator_username } }),
      ],
      [
        'POST',
        '/v2/post/publish/creator_info/query/',
        (req) => {
          const refused = authed(req)
          if (refused) return refused
          jsonBody(req)
          return ok(state.creator)
        },
      ],
      [
        'POST',
        '/v2/post/publish/video/init/',
        (req) => {
          const refused = authed(req)
          if (refused) return refused
          const body = jsonBody(req)
          const refusedInfo = checkPostInfo(body.post_info)
          if (refusedInfo) return refusedInfo
          const src = body.source_info ?? {}
          if (src.source !== 'FILE_UPLOAD')
            return tiktokError(
              403,
              'url_ownership_unverified',
              'Please verify the ownership of the URL prefix or domain.',
            )
          if (src.total_chunk_count !== Math.max(1, Math.floor(src.video_size / src.chunk_size)))
            return tiktokError(400, 'invalid_param', 'total_chunk_count does not match video_size and chunk_size.')
          const post = newPost('VIDEO', body)
          return ok({
            publish_id: post.publishId,
            upload_url: `${server.url}/video/?upload_id=${post.publishId}&upload_token=secret_${post.publishId}`,
          })
        },
      ],
      [
        'PUT',
        '/video/',
        (req) => {
          const post = state.posts.find((p) => p.publishId === req.query.get('upload_id'))
          if (!post || req.query.get('upload_token') !== `secret_${post.publishId}`)
            return { status: 404, json: { error: { code: 'not_found', message: 'Upload session not found.' } } }
          const i = state.failNextReplies.findIndex((f) => f.path === '/video/')
          if (i >= 0) return state.failNextReplies.splice(i, 1)[0]!.reply
          const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(req.headers['content-range'] ?? '')
          if (!m || !['video/mp4', 'video/quicktime', 'video/webm'].includes(req.headers['content-type'] ?? ''))
            return {
              status: 400,
              json: {
                error: {
                  code: 'invalid_param',
                  message: 'Content-Range and Content-Type video/mp4, video/quicktime or video/webm are required.',
                },
              },
            }
          const [first, last, total] = [Number(m[1]), Number(m[2]), Number(m[3])]
          if (total !== post.sourceInfo.video_size || last - first + 1 !== req.body.length)
            return {
              status: 400,
              json: { error: { code: 'invalid_params', message: 'Content-Range does not match.' } },
            }
          if (first === 0) post.bytes = Buffer.alloc(0)
          if (first !== post.bytes.length)
            return {
              status: 416,
              json: { error: { code: 'invalid_params', message: 'Chunks must be sent in order.' } },
            }
          post.bytes = Buffer.concat([post.bytes, req.body])
          return { status: post.bytes.length === total ? 201 : 206 }
        },
      ],
      [
        'POST',
        '/v2/post/publish/content/init/',
        async (req) => {
          const refused = authed(req)
          if (refused) return refused
          const body = jsonBody(req)
          if (body.media_type !== 'PHOTO' || body.post_mode !== 'DIRECT_POST')
            return tiktokError(400, 'invalid_param', 'media_type and post_mode are required.')
          const refusedInfo = checkPostInfo(body.post_info)
          if (refusedInfo) return refusedInfo
          const src = body.source_info ?? {}
          if (
            src.source !== 'PULL_FROM_URL' ||
            !Array.isArray(src.photo_images) ||
            src.photo_images.length < 1 ||
            src.photo_images.length > 35
          )
            return tiktokError(400, 'invalid_param', 'photo_images must hold 1 to 35 URLs.')
          const photos: Buffer[] = []
          for (const url of src.photo_images as string[]) {
            const res = await fetch(url)
            if (!res.ok) return tiktokError(400, 'invalid_param', 'A photo URL could not be fetched.')
            const bytes = Buffer.from(await res.arrayBuffer())
            const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8
            const webp = bytes.subarray(8, 12).toString('latin1') === 'WEBP'
            if (!jpeg && !webp)
              return tiktokError(400, 'file_format_check_failed', 'The photo format is not supported.')
            photos.push(bytes)
          }
          const post = newPost('PHOTO', body)
          post.photos = photos
          return ok({ publish_id: post.publishId })
        },
      ],
      [
        'POST',
        '/v2/post/publish/status/fetch/',
        (req) => {
          const refused = authed(req)
          if (refused) return refused
          const post = state.posts.find((p) => p.publishId === jsonBody(req).publish_id)
          if (!post) return tiktokError(400, 'invalid_publish_id', 'publish_id does not exist.')
          post.polls++
          if (post.status.startsWith('PROCESSING')) {
            const uploadDone = post.kind === 'PHOTO' || post.bytes.length === post.sourceInfo.video_size
            if (uploadDone && post.polls > state.processingPolls) {
              if (post.failReason) post.status = 'FAILED'
              else {
                post.status = 'PUBLISH_COMPLETE'
                // Real ids are 19-digit int64s, beyond what a JS number holds exactly.
                if (state.givePublicId) post.publicId = `73012345678901234${String(10 + state.posts.indexOf(post))}`
              }
            }
          }
          // publicaly_available_post_id is list<int64>: written as bare numbers, as TikTok sends them.
          const data = JSON.stringify({
            status: post.status,
            ...(post.failReason && post.status === 'FAILED' ? { fail_reason: post.failReason } : {}),
            publicaly_available_post_id: '@IDS@',
            uploaded_bytes: post.bytes.length,
          })
          const body = `{"data":${data.replace('"@IDS@"', `[${post.publicId ?? ''}]`)},"error":{"code":"ok","message":"","log_id":"log_ok"}}`
          return { status: 200, headers: { 'content-type': 'application/json' }, body }
        },
      ],
      [
        'POST',
        '/v2/video/list/',
        (req) => authed(req) ?? listVideos(req, { videos: state.videos, scopes: state.scopes }),
      ],
    ],
    () => tiktokError(404, 'invalid_params', 'No such endpoint.'),
  )

  function checkPostInfo(info: any): FakeReply | null {
    if (!info || !state.creator.privacy_level_options.includes(info.privacy_level))
      return tiktokError(400, 'privacy_level_option_mismatch', "privacy_level is not one of the creator's options.")
    return null
  }
  function newPost(kind: 'VIDEO' | 'PHOTO', body: any): ShortVideoPost {
    serial++
    const post: ShortVideoPost = {
      publishId: `v_pub_file~v2-1.${serial}`,
      kind,
      postInfo: body.post_info,
      sourceInfo: body.source_info,
      bytes: Buffer.alloc(0),
      photos: [],
      polls: 0,
      status: kind === 'VIDEO' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD',
    }
    if (state.failJobWith) {
      post.failReason = state.failJobWith
      state.failJobWith = null
    }
    state.posts.push(post)
    return post
  }

  return {
    oauth,
    ...server,
    state,
    /** The next call (to `path`, or any authed call) answers this instead. */
    failNext: (reply: FakeReply, path?: string) => state.failNextReplies.push({ ...(path ? { path } : {}), reply }),
    /** The current access token stops working (as after its 2 h). */
    expireToken: () => (state.accessToken = `${state.accessToken}_expired`),
  }
}
