/**
 * The pinboard network (Pinterest API v5). A pin goes to the board the user chose for the account
 * (`destinations`, or the older `pinboardNetBoards`): one image (`image_url`, fetched by the network from our public URL),
 * 2 to 5 images (`multiple_image_urls`), or one video (registered with `POST /v5/media`, uploaded
 * to the presigned URL the network hands out, polled through the engine's pending state until it
 * has processed, then pinned by `media_id`).
 *
 * The network has no idempotency key. The video's media id and upload are saved as they happen,
 * and the attempt's time is saved before the pin is created, so an unconfirmed publish is settled
 * by listing the board's pins for one with our title, description and link made after that time.
 */
import type {
  Board,
  BoardsInput,
  NetworkAdapter,
  PendingInput,
  PublishInput,
  PublishProgress,
  PublishResult,
} from '../../adapter'
import { NetworkFailure, asFailedResult, createdId, downloadMedia, MEDIA_TIMEOUT_MS, request } from '../../http'
import { metric } from '../../metrics'
import type { AdapterOptions } from '../options'
import { listPosts } from './inbox'
import { NETWORK, PIN_URL, pinClient, pinRefresh, type PinCall } from './api'

/** Seconds between checks of a processing video. */
export const VIDEO_POLL_SEC = 15
/** Boards pages followed at most (250 boards each). */
export const MAX_BOARD_PAGES = 40
/** The board's newest pins read when looking for an unconfirmed pin, and the clock skew allowed. */
export const PIN_LOOKUP_PAGE_SIZE = 50
export const PIN_MATCH_SKEW_SEC = 120
/** The network keeps pin analytics for 90 days. */
export const ANALYTICS_WINDOW_DAYS = 89
/** The video frame (seconds in) the cover is taken from; the network requires a cover. */
export const COVER_KEY_FRAME = 1

export interface VideoPending {
  stage: 'video'
  mediaId: string
}

/** Every board of the account, page after page (`GET /v5/boards`). */
async function listBoards(input: BoardsInput): Promise<Board[]> {
  const call = pinClient(input)
  const boards: Board[] = []
  let bookmark: string | null = null
  for (let page = 0; page < MAX_BOARD_PAGES; page++) {
    const body = await call('GET', '/v5/boards', { query: { page_size: '250', ...(bookmark ? { bookmark } : {}) } })
    for (const b of body.items ?? [])
      boards.push({ id: String(b.id), name: String(b.name ?? ''), privacy: String(b.privacy ?? 'PUBLIC') })
    bookmark = typeof body.bookmark === 'string' && body.bookmark ? body.bookmark : null
    if (!bookmark) break
  }
  return boards
}

export function createPinboardAdapter(options: AdapterOptions): NetworkAdapter {
  return {
    listPosts,
    credentialRefresh: pinRefresh(options),

    async verifyCredentials(input) {
      const me = await pinClient(input)('GET', '/v5/user_account')
      const username = String(me.username ?? '')
      return { username, externalId: String(me.id ?? username), credentials: { ...input.credentials } }
    },

    listBoards,

    /** A pin's destination is one of the account's boards. */
    async listDestinations(input) {
      const boards = await listBoards(input)
      return boards.map((b) => ({
        id: b.id,
        name: b.name,
        description: b.privacy === 'SECRET' ? 'Secret board' : null,
      }))
    },

    async publish(input) {
      try {
        return await publish(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async checkStatus(input) {
      try {
        const call = pinClient(input)
        const pending = input.progress.pending as VideoPending | undefined
        if (pending?.stage === 'video') return await videoStatus(call, input, pending)
        if (!input.unconfirmed) return await publish(input)
        if (input.progress.headId)
          return {
            status: 'published',
            platformPostId: input.progress.headId,
            permalink: PIN_URL(input.progress.headId),
          }
        return await findUnconfirmed(call, input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async fetchInsights(input) {
      const call = pinClient(input)
      const me = await call('GET', '/v5/user_account')
      const end = day(input.now)
      const posts = []
      for (const post of input.posts) {
        const earliest = new Date(input.now.getTime() - ANALYTICS_WINDOW_DAYS * 86_400_000)
        const start = day(post.publishedAt > earliest ? post.publishedAt : earliest)
        let summary: Record<string, unknown> = {}
        try {
          const body = await call('GET', `/v5/pins/${encodeURIComponent(post.platformPostId)}/analytics`, {
            query: { start_date: start, end_date: end, metric_types: 'IMPRESSION,SAVE' },
          })
          summary = body.all?.summary_metrics ?? body.all?.lifetime_metrics ?? {}
        } catch (err) {
          if (!(err instanceof NetworkFailure && err.kind === 'rejected')) throw err
        }
        posts.push({
          targetId: post.targetId,
          likes: null,
          comments: null,
          shares: null,
          views: metric(summary.IMPRESSION),
          saves: metric(summary.SAVE),
        })
      }
      return { followers: metric(me.follower_count), posts }
    },

    async deletePost(input) {
      try {
        await pinClient(input)('DELETE', `/v5/pins/${encodeURIComponent(input.platformPostId)}`)
      } catch (err) {
        // Already gone is what the user asked for.
        if (!(err instanceof NetworkFailure && /HTTP 404|not found/i.test(err.message))) throw err
      }
    },
  }
}

async function publish(input: PublishInput): Promise<PublishResult> {
  const { content, progress } = input
  if (progress.headId && progress.pending === undefined)
    return { status: 'published', platformPostId: progress.headId, permalink: PIN_URL(progress.headId) }
  if (!content.pinboardBoardId)
    throw new NetworkFailure('rejected', `${NETWORK}: choose a board for this account (pinboardNetBoards).`)
  const call = pinClient(input)
  const images = content.media.filter((m) => m.type === 'IMAGE')
  const videos = content.media.filter((m) => m.type === 'VIDEO')
  if (content.media.length === 0) throw new NetworkFailure('rejected', `${NETWORK}: a pin needs an image or a video.`)
  if (videos.length > 0) {
    if (content.media.length > 1) throw new NetworkFailure('rejected', `${NETWORK}: a video pin takes one video alone.`)
    return startVideo(call, input)
  }
  if (images.length > 5) throw new NetworkFailure('rejected', `${NETWORK}: a carousel pin takes 2 to 5 images.`)
  const source =
    images.length === 1
      ? { source_type: 'image_url', url: images[0]!.url }
      : { source_type: 'multiple_image_urls', items: images.map((m) => ({ url: m.url })) }
  return createPin(call, input, source)
}

/** The pin itself, once: the attempt time is saved first, the pin id right after. */
async function createPin(
  call: PinCall,
  input: Pick<PublishInput, 'content' | 'now' | 'saveProgress'>,
  mediaSource: Record<string, unknown>,
): Promise<PublishResult> {
  const { content } = input
  const alt = content.media.find((m) => m.altText)?.altText
  await input.saveProgress({ headAttemptAt: input.now.toISOString() })
  const pin = await call('POST', '/v5/pins', {
    json: {
      board_id: content.pinboardBoardId,
      ...(content.pinTitle ? { title: content.pinTitle } : {}),
      description: content.text,
      ...(content.linkUrl ? { link: content.linkUrl } : {}),
      ...(alt ? { alt_text: alt } : {}),
      media_source: mediaSource,
    },
  })
  const id = createdId(pin?.id, NETWORK, pin, 'pin')
  await input.saveProgress({ headId: id })
  return { status: 'published', platformPostId: id, permalink: PIN_URL(id) }
}

/** Registers the video (once), uploads it to the presigned URL (once), then waits for processing. */
async function startVideo(call: PinCall, input: PublishInput): Promise<PublishResult> {
  const progress = input.progress
  let mediaId = typeof progress.videoMediaId === 'string' ? progress.videoMediaId : ''
  let upload = progress.videoUpload as { url: string; parameters: Record<string, string> } | undefined
  if (!mediaId || !upload) {
    const registered = await call('POST', '/v5/media', { json: { media_type: 'video' } })
    mediaId = String(registered.media_id)
    upload = { url: String(registered.upload_url), parameters: registered.upload_parameters ?? {} }
    await input.saveProgress({ videoMediaId: mediaId, videoUpload: upload, videoUploaded: false })
  }
  if (progress.videoUploaded !== true) {
    const video = input.content.media[0]!
    const bytes = await downloadMedia(input.fetch, video)
    const form = new FormData()
    for (const [k, v] of Object.entries(upload.parameters)) form.append(k, String(v))
    form.append('file', new Blob([bytes as BlobPart], { type: video.mimeType }), `video-${video.id}`)
    const answer = await request(input.fetch, NETWORK, upload.url, {
      method: 'POST',
      body: form,
      timeoutMs: MEDIA_TIMEOUT_MS,
    })
    if (answer.status < 200 || answer.status >= 300) {
      // A presigned upload that was refused (expired) is registered afresh on the next attempt.
      await input.saveProgress({ videoMediaId: undefined, videoUpload: undefined } as PublishProgress)
      throw new NetworkFailure('transient', `${NETWORK}: the video upload was refused (HTTP ${answer.status}).`)
    }
    await input.saveProgress({ videoUploaded: true })
  }
  const state: VideoPending = { stage: 'video', mediaId }
  await input.saveProgress({ pending: state })
  return { status: 'pending', state, checkAfterSec: VIDEO_POLL_SEC }
}

async function videoStatus(call: PinCall, input: PendingInput, state: VideoPending): Promise<PublishResult> {
  const media = await call('GET', `/v5/media/${encodeURIComponent(state.mediaId)}`)
  if (media.status === 'failed')
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: the video could not be processed; check its format (MP4, MOV or M4V, 4 s to 15 min).`,
    )
  if (media.status !== 'succeeded') return { status: 'pending', state, checkAfterSec: VIDEO_POLL_SEC }
  if (input.unconfirmed && typeof input.progress.headAttemptAt === 'string') {
    const found = await findUnconfirmed(call, input)
    if (found.status === 'published') return found
  }
  return createPin(call, input, {
    source_type: 'video_id',
    media_id: state.mediaId,
    cover_image_key_frame_time: COVER_KEY_FRAME,
  })
}

/** A pin on the board with our title, description and link, created at or after the attempt (less skew). */
async function findUnconfirmed(call: PinCall, input: PendingInput): Promise<PublishResult> {
  const attemptAt = typeof input.progress.headAttemptAt === 'string' ? Date.parse(input.progress.headAttemptAt) : NaN
  const { content } = input
  const boardId = content.pinboardBoardId
  if (Number.isNaN(attemptAt) || !boardId) return { status: 'absent' }
  const body = await call('GET', `/v5/boards/${encodeURIComponent(boardId)}/pins`, {
    query: { page_size: String(PIN_LOOKUP_PAGE_SIZE) },
  })
  const since = attemptAt - PIN_MATCH_SKEW_SEC * 1000
  const pins: Array<Record<string, any>> = Array.isArray(body.items) ? body.items : []
  const ours = pins.find(
    (p) =>
      (p.description ?? '') === content.text &&
      (p.title || null) === (content.pinTitle || null) &&
      (p.link || null) === (content.linkUrl || null) &&
      utcTime(p.created_at) >= since,
  )
  if (!ours) return { status: 'absent' }
  await input.saveProgress({ headId: String(ours.id) })
  return { status: 'published', platformPostId: String(ours.id), permalink: PIN_URL(String(ours.id)) }
}

const day = (d: Date) => d.toISOString().slice(0, 10)
/**
 * `created_at` is a date-time the network writes without a zone (`2026-11-21T10:00:00`): it is UTC,
 * never the host's local time.
 */
const utcTime = (value: unknown): number =>
  typeof value === 'string' ? Date.parse(/(Z|[+-]\d\d:?\d\d)$/.test(value) ? value : `${value}Z`) : NaN
