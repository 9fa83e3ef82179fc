/**
 * Publishing one target on the page network, in its formats: text, a link card, one photo,
 * several photos (unpublished photos attached to one feed post), one video (processed
 * asynchronously, polled through the engine's pending state); a reel and a story are in
 * formats.ts. Graph has no idempotency key. Every object we create is saved in progress at once,
 * and before the head post is created the attempt's time is saved (`headAttemptAt`), so an
 * unconfirmed publish is settled by reading the Page's recent feed for our text at or after that time.
 */
import type { PendingInput, PublishInput, PublishMedia, PublishProgress, PublishResult } from '../../adapter'
import { NetworkFailure, credential } from '../../http'
import { FAILED_VIDEO_STATUSES, NETWORK, graphClient, literalText, permalinkOf, type GraphCall } from './api'
import { publishReel, publishStory, reelPending } from './formats'

/** Seconds between checks of a processing video. */
export const VIDEO_POLL_SEC = 20
/** How far before the saved attempt time a post in the feed still counts as ours (clock skew). */
export const FEED_MATCH_SKEW_SEC = 120
/** Posts of the feed read when looking for an unconfirmed post. */
export const FEED_LOOKUP_LIMIT = 25

export interface VideoPending {
  stage: 'video'
  videoId: string
}

/** Where a pending or unconfirmed publish stands: a processing video or reel, the publish resumed, or the feed read. */
export async function checkPost(input: PendingInput): Promise<PublishResult> {
  const pending = input.progress.pending as { stage?: string } | undefined
  const call = graphClient(input)
  if (pending?.stage === 'video') return await videoStatus(call, input, pending as VideoPending)
  if (pending?.stage === 'reel') return await reelPending(call, input, input.saveProgress)
  if (!input.unconfirmed) return await publishPost(input)
  if (input.progress.headId) return await published(call, input.progress.headId, input.progress)
  return await findUnconfirmed(call, input)
}

/** One step of the publish, in the post's format; what progress already holds is not made again. */
export async function publishPost(input: PublishInput): Promise<PublishResult> {
  const call = graphClient(input)
  const pageId = credential(input.credentials, 'pageId')
  const { progress } = input
  if (progress.headId && progress.pending === undefined) return published(call, progress.headId, progress)
  const { content } = input
  const videos = content.media.filter((m) => m.type === 'VIDEO')
  const images = content.media.filter((m) => m.type === 'IMAGE')
  if (content.type === 'REEL') return publishReel(call, input, pageId, videos)
  if (content.type === 'STORY') return publishStory(call, input, pageId)
  if (videos.length > 0 && (videos.length > 1 || images.length > 0)) {
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: a post takes one video alone; publish the other media in separate posts.`,
    )
  }
  const warnings =
    content.linkUrl && content.media.length > 0
      ? ['linkUrl was not used: the network shows a link card only on posts without media.']
      : []
  const save = async (next: PublishProgress) => input.saveProgress(next)

  if (videos.length === 1) {
    await save({ headAttemptAt: input.now.toISOString() })
    const video = await call('POST', `${pageId}/videos`, {
      json: { file_url: videos[0]!.url, description: literalText(content.text) },
    })
    const state: VideoPending = { stage: 'video', videoId: String(video.id) }
    await save({ headId: state.videoId, pending: state })
    return { status: 'pending', state, checkAfterSec: VIDEO_POLL_SEC }
  }

  if (images.length === 1) {
    await save({ headAttemptAt: input.now.toISOString() })
    const photo = await call('POST', `${pageId}/photos`, {
      json: { url: images[0]!.url, caption: literalText(content.text), ...altText(images[0]!) },
    })
    const headId = String(photo.post_id ?? photo.id)
    await save({ headId })
    return published(call, headId, progress, warnings)
  }

  if (images.length > 1) {
    const photoIds = await unpublishedPhotos(call, pageId, images, progress, save)
    await save({ headAttemptAt: input.now.toISOString() })
    const post = await call('POST', `${pageId}/feed`, {
      json: { message: literalText(content.text), attached_media: photoIds.map((id) => ({ media_fbid: id })) },
    })
    await save({ headId: String(post.id) })
    return published(call, String(post.id), progress, warnings)
  }

  if (!content.text.trim() && !content.linkUrl)
    throw new NetworkFailure('rejected', `${NETWORK}: a post without media needs text or a link.`)
  await save({ headAttemptAt: input.now.toISOString() })
  const post = await call('POST', `${pageId}/feed`, {
    json: { message: literalText(content.text), ...(content.linkUrl ? { link: content.linkUrl } : {}) },
  })
  await save({ headId: String(post.id) })
  return published(call, String(post.id), progress)
}

/** Uploads each photo unpublished, once: ids already in progress are reused on a retry. */
async function unpublishedPhotos(
  call: GraphCall,
  pageId: string,
  images: PublishMedia[],
  progress: PublishProgress,
  save: (p: PublishProgress) => Promise<void>,
): Promise<string[]> {
  const ids = Array.isArray(progress.photoIds) ? [...(progress.photoIds as string[])] : []
  for (let i = ids.length; i < images.length; i++) {
    const photo = await call('POST', `${pageId}/photos`, {
      json: { url: images[i]!.url, published: false, ...altText(images[i]!) },
    })
    ids.push(String(photo.id))
    await save({ photoIds: [...ids] })
  }
  return ids
}

const altText = (media: PublishMedia) => (media.altText ? { alt_text_custom: media.altText } : {})

async function published(
  call: GraphCall,
  headId: string,
  progress: PublishProgress,
  warnings: string[] = [],
): Promise<PublishResult> {
  const permalink =
    typeof progress.headPermalink === 'string' ? progress.headPermalink : await permalinkOf(call, headId)
  return { status: 'published', platformPostId: headId, permalink, ...(warnings.length ? { warnings } : {}) }
}

/** A processing video: `ready` (or a complete processing phase) publishes, `error` or `expired` refuses. */
async function videoStatus(call: GraphCall, input: PendingInput, state: VideoPending): Promise<PublishResult> {
  const video = await call('GET', state.videoId, { query: { fields: 'status,permalink_url' } })
  const status = video.status ?? {}
  const phase = status.processing_phase?.status
  if (FAILED_VIDEO_STATUSES.includes(status.video_status) || phase === 'error') {
    const reason =
      status.processing_phase?.errors?.[0]?.message ??
      status.uploading_phase?.errors?.[0]?.message ??
      (status.video_status === 'expired' ? 'the upload expired before it was processed' : null)
    throw new NetworkFailure('rejected', `${NETWORK}: the video could not be processed${reason ? `: ${reason}` : ''}.`)
  }
  if (status.video_status === 'ready' || phase === 'complete') {
    await input.saveProgress({ headId: state.videoId })
    return published(call, state.videoId, input.progress)
  }
  return { status: 'pending', state, checkAfterSec: VIDEO_POLL_SEC }
}

/**
 * An unconfirmed head post: never attempted means absent; else our text in the Page's recent
 * feed, created at or after the attempt (less clock skew), is ours; not there means absent.
 */
async function findUnconfirmed(call: GraphCall, input: PendingInput): Promise<PublishResult> {
  const attemptAt = typeof input.progress.headAttemptAt === 'string' ? Date.parse(input.progress.headAttemptAt) : NaN
  if (Number.isNaN(attemptAt)) return { status: 'absent' }
  const pageId = credential(input.credentials, 'pageId')
  const since = Math.floor(attemptAt / 1000) - FEED_MATCH_SKEW_SEC
  const feed = await call('GET', `${pageId}/feed`, {
    query: { fields: 'id,message,created_time,permalink_url', since: String(since), limit: String(FEED_LOOKUP_LIMIT) },
  })
  const items: Array<{ id: string; message?: string; created_time?: string; permalink_url?: string }> = Array.isArray(
    feed.data,
  )
    ? feed.data
    : []
  const ours = items.find(
    (p) => (p.message ?? '') === literalText(input.content.text) && Date.parse(p.created_time ?? '') / 1000 >= since,
  )
  if (!ours) return { status: 'absent' }
  await input.saveProgress({ headId: ours.id })
  return {
    status: 'published',
    platformPostId: ours.id,
    permalink: ours.permalink_url ?? (await permalinkOf(call, ours.id)),
  }
}
