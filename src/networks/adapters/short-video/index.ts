/**
 * The short-video network (TikTok Content Posting API, direct post). Every post is a video
 * (FILE_UPLOAD: we push the bytes; PULL_FROM_URL would need a verified domain) or a photo post
 * (PULL_FROM_URL only: TikTok fetches our public media URLs). The publish id is saved the moment
 * TikTok returns it, so a retry never starts a second post; processing is followed by polling
 * the status endpoint through `pending`. No insights (the scope is not approved), no delete.
 */
import type {
  NetworkAdapter,
  PendingInput,
  PublishInput,
  PublishMedia,
  PublishResult,
  VerifyInput,
  VerifiedAccount,
} from '../../adapter'
import {
  MEDIA_TIMEOUT_MS,
  NetworkFailure,
  asFailedResult,
  credential,
  downloadMedia,
  kindOfStatus,
  request,
} from '../../http'
import { oauthErrorFailure, oauthRefresh, type OAuthRenewal } from '../../oauth'
import type { AdapterOptions } from '../options'
import { listPosts } from './inbox'
import {
  FAIL_REASONS,
  NETWORK,
  PATHS,
  REFRESH_MARGIN_SEC,
  STATUS_POLL_SEC,
  api,
  chunkPlan,
  publicPostIds,
  settingsFor,
  type CreatorInfo,
} from './api'

const PROFILE_URL = 'https://www.tiktok.com/'
/**
 * Token renewal: the client's key and secret go in the form (TikTok calls the id `client_key`);
 * refresh tokens rotate, so the newest one is stored. A 401 or `invalid_grant` means reconnect.
 */
const TOKEN_RENEWAL: OAuthRenewal = {
  network: NETWORK,
  tokenPath: PATHS.token,
  clientAuth: { idField: 'client_key', secretField: 'client_secret' },
  refreshMarginSec: REFRESH_MARGIN_SEC,
  defaultLifetimeSec: 7200,
  failure: oauthErrorFailure(NETWORK, [401]),
}

/** What a publish has done so far, kept in `progress.shortVideo`. */
interface ShortVideoState {
  /** Set just before the init call: from then on a post may exist. */
  initStarted?: boolean
  publishId?: string
  /** FILE_UPLOAD only: where the chunks go, and whether all of them went. */
  uploadUrl?: string
  uploaded?: boolean
}

const stateOf = (progress: PublishInput['progress']): ShortVideoState => ({
  ...((progress.shortVideo as ShortVideoState | undefined) ?? {}),
})

export function createShortVideoAdapter(options: AdapterOptions): NetworkAdapter {
  return {
    listPosts,
    async publish(input) {
      try {
        return await advance(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async checkStatus(input: PendingInput) {
      try {
        const state = stateOf(input.progress)
        const pending = input.progress.pending as { publishId?: string } | undefined
        const publishId = pending?.publishId ?? state.publishId
        if (!publishId) {
          // No publish id saved: nothing exists unless the init call was under way when we lost track.
          if (input.unconfirmed)
            return state.initStarted
              ? {
                  status: 'failed',
                  kind: 'transient',
                  message: `${NETWORK}: cannot tell whether the post was started.`,
                }
              : { status: 'absent' }
          return await advance(input)
        }
        // A video whose upload did not finish: send it again into the same publish id (never a second init).
        if (state.uploadUrl && !state.uploaded) return await advance(input)
        return await pollStatus(input, publishId)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async verifyCredentials(input: VerifyInput): Promise<VerifiedAccount> {
      const openId = credential(input.credentials, 'openId')
      const data = await api(
        input.fetch,
        input.baseUrl,
        credential(input.credentials, 'accessToken'),
        PATHS.userInfo,
        input.now,
      )
      const user = data?.user ?? {}
      if (user.open_id !== openId)
        throw new NetworkFailure(
          'rejected',
          `${NETWORK}: these credentials belong to another account (open_id ${String(user.open_id)}, not ${openId}).`,
        )
      const username =
        typeof user.username === 'string' && user.username ? user.username : String(user.display_name ?? '')
      return { username, externalId: openId, credentials: { ...input.credentials, ...(username ? { username } : {}) } }
    },

    credentialRefresh: oauthRefresh(TOKEN_RENEWAL, options.clients.SHORTVIDEO_NET),
  }
}

/** Starts the post (once), uploads a video's bytes when needed, then hands over to status polling. */
async function advance(input: PublishInput): Promise<PublishResult> {
  const token = credential(input.credentials, 'accessToken')
  const state = stateOf(input.progress)
  const video = input.content.media.find((m) => m.type === 'VIDEO') ?? null
  if (!state.publishId) {
    const creator: CreatorInfo = await api(input.fetch, input.baseUrl, token, PATHS.creatorInfo, input.now, {
      method: 'POST',
      json: {},
    })
    const settings = settingsFor(input.content.videoNetOptions, creator, video)
    const images = input.content.media.filter((m) => m.type === 'IMAGE')
    if (!video && images.length === 0)
      throw new NetworkFailure('rejected', `${NETWORK}: a post needs a video or 1 to 35 photos.`)
    const bytes = video ? await downloadMedia(input.fetch, video) : null
    await save(input, { initStarted: true })
    let data: any
    if (video && bytes) {
      const plan = chunkPlan(bytes.byteLength)
      data = await api(input.fetch, input.baseUrl, token, PATHS.videoInit, input.now, {
        method: 'POST',
        json: {
          post_info: {
            title: input.content.text,
            privacy_level: settings.privacyLevel,
            disable_comment: settings.disableComment,
            disable_duet: settings.disableDuet,
            disable_stitch: settings.disableStitch,
            brand_content_toggle: settings.brandContentToggle,
            brand_organic_toggle: settings.brandOrganicToggle,
          },
          source_info: {
            source: 'FILE_UPLOAD',
            video_size: bytes.byteLength,
            chunk_size: plan.chunkSize,
            total_chunk_count: plan.totalChunkCount,
          },
        },
      })
    } else {
      const title =
        typeof input.content.videoNetOptions?.title === 'string' ? input.content.videoNetOptions.title : undefined
      data = await api(input.fetch, input.baseUrl, token, PATHS.photoInit, input.now, {
        method: 'POST',
        json: {
          media_type: 'PHOTO',
          post_mode: 'DIRECT_POST',
          post_info: {
            ...(title ? { title } : {}),
            description: input.content.text,
            privacy_level: settings.privacyLevel,
            disable_comment: settings.disableComment,
            auto_add_music: true,
          },
          source_info: { source: 'PULL_FROM_URL', photo_images: images.map((m) => m.url), photo_cover_index: 0 },
        },
      })
    }
    if (typeof data?.publish_id !== 'string')
      throw new NetworkFailure('transient', `${NETWORK}: the post was started but no publish id came back.`)
    Object.assign(state, {
      publishId: data.publish_id,
      ...(video ? { uploadUrl: String(data.upload_url ?? ''), uploaded: false } : {}),
    })
    await save(input, state)
    if (video && bytes) await uploadChunks(input, video, bytes, state)
  } else if (state.uploadUrl && !state.uploaded && video) {
    await uploadChunks(input, video, await downloadMedia(input.fetch, video), state)
  }
  return { status: 'pending', state: { publishId: state.publishId }, checkAfterSec: STATUS_POLL_SEC }
}

async function save(input: PublishInput, state: ShortVideoState): Promise<void> {
  await input.saveProgress({ ...input.progress, shortVideo: { ...state } })
}

/** PUT each chunk to the upload URL (followed as given) with its Content-Range; 206 partial, 201 done. */
async function uploadChunks(
  input: PublishInput,
  video: PublishMedia,
  bytes: Uint8Array,
  state: ShortVideoState,
): Promise<void> {
  if (!state.uploadUrl) throw new NetworkFailure('transient', `${NETWORK}: no upload URL came back for the video.`)
  const total = bytes.byteLength
  for (const [first, last] of chunkPlan(total).ranges) {
    const answer = await request(input.fetch, NETWORK, state.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': video.mimeType, 'content-range': `bytes ${first}-${last}/${total}` },
      body: bytes.slice(first, last + 1),
      timeoutMs: MEDIA_TIMEOUT_MS,
    })
    if (answer.status >= 300) {
      const said = answer.body?.error?.message
      throw new NetworkFailure(
        kindOfStatus(answer.status) === 'auth_expired' ? 'transient' : kindOfStatus(answer.status),
        `${NETWORK}: the video upload failed (${typeof said === 'string' && said ? said : `HTTP ${answer.status}`}).`,
      )
    }
  }
  state.uploaded = true
  await save(input, state)
}

async function pollStatus(input: PublishInput, publishId: string): Promise<PublishResult> {
  const token = credential(input.credentials, 'accessToken')
  const data = await api(input.fetch, input.baseUrl, token, PATHS.status, input.now, {
    method: 'POST',
    json: { publish_id: publishId },
  })
  switch (data?.status) {
    case 'PUBLISH_COMPLETE':
    case 'SEND_TO_USER_INBOX':
      return published(input, token, publishId, data)
    case 'FAILED': {
      const reason = typeof data.fail_reason === 'string' ? data.fail_reason : 'unknown'
      return {
        status: 'failed',
        kind: 'rejected',
        message: `${NETWORK}: the post failed: ${FAIL_REASONS[reason] ?? reason}.`,
      }
    }
    default:
      return { status: 'pending', state: { publishId }, checkAfterSec: STATUS_POLL_SEC }
  }
}

/**
 * The public post id appears only after moderation (never for private posts): until then the
 * publish id stands for the post and the link goes to the creator's profile.
 */
async function published(input: PublishInput, token: string, publishId: string, data: any): Promise<PublishResult> {
  const ids = publicPostIds(String(data.rawText ?? ''))
  const postId = ids[0] ?? null
  const username = await usernameOf(input, token)
  const profile = username ? `https://www.tiktok.com/@${username}` : PROFILE_URL
  const warnings: string[] = []
  if (data.status === 'SEND_TO_USER_INBOX')
    warnings.push("TikTok sent the post to the creator's inbox: finish it in the app.")
  if (!postId)
    warnings.push(
      'TikTok has not made the post public yet (moderation, or a private post): the link goes to the profile.',
    )
  return {
    status: 'published',
    platformPostId: postId ?? publishId,
    permalink: postId && username ? `${profile}/video/${postId}` : profile,
    ...(warnings.length ? { warnings } : {}),
  }
}

/** The handle for the permalink: stored at connection time, else asked once (best effort). */
async function usernameOf(input: PublishInput, token: string): Promise<string | null> {
  if (typeof input.credentials.username === 'string' && input.credentials.username) return input.credentials.username
  try {
    const data = await api(input.fetch, input.baseUrl, token, PATHS.userInfo, input.now)
    return typeof data?.user?.username === 'string' && data.user.username ? data.user.username : null
  } catch (err) {
    // The network not answering only costs the link its handle; a bug of ours still goes up.
    if (err instanceof NetworkFailure) return null
    throw err
  }
}
