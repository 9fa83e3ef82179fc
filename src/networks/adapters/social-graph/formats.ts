/**
 * The page network's reel and story formats. Both go through the network's resumable upload:
 * `upload_phase=start` gives a video id and an upload URL, the network pulls our file from its
 * public URL (`file_url` header), `upload_phase=finish` publishes. Reels process afterwards and
 * are polled through the engine's pending state; a photo story is an unpublished photo made a story.
 */
import type { PendingInput, PublishInput, PublishMedia, PublishResult } from '../../adapter'
import { NetworkFailure, credential, request } from '../../http'
import { graphFailure } from '../meta/graph'
import { FAILED_VIDEO_STATUSES, NETWORK, literalText, permalinkOf, type GraphCall } from './api'

/** Seconds between checks of a processing reel. */
export const REEL_POLL_SEC = 20

export interface ReelPending {
  stage: 'reel'
  videoId: string
}

type Uploaded = { videoId: string }

/** Start and upload, once each: the video id, its upload URL and the upload's success are saved as they happen. */
async function startAndUpload(
  call: GraphCall,
  input: PublishInput,
  edge: string,
  video: PublishMedia,
): Promise<Uploaded> {
  const progress = input.progress
  let videoId = typeof progress.uploadVideoId === 'string' ? progress.uploadVideoId : ''
  let uploadUrl = typeof progress.uploadUrl === 'string' ? progress.uploadUrl : ''
  if (!videoId || !uploadUrl) {
    const started = await call('POST', edge, { json: { upload_phase: 'start' } })
    videoId = String(started.video_id)
    uploadUrl = String(started.upload_url)
    await input.saveProgress({ uploadVideoId: videoId, uploadUrl })
  }
  if (progress.uploadDone !== true) {
    const token = credential(input.credentials, 'accessToken')
    const answer = await request(input.fetch, NETWORK, uploadUrl, {
      method: 'POST',
      headers: { authorization: `OAuth ${token}`, file_url: video.url },
    })
    if (answer.status < 200 || answer.status >= 300 || !answer.body || answer.body.error)
      throw graphFailure(answer, NETWORK, input.now)
    await input.saveProgress({ uploadDone: true })
  }
  return { videoId }
}

export async function publishReel(
  call: GraphCall,
  input: PublishInput,
  pageId: string,
  videos: PublishMedia[],
): Promise<PublishResult> {
  if (videos.length !== 1 || input.content.media.length !== 1)
    throw new NetworkFailure('rejected', `${NETWORK}: a reel takes exactly one video.`)
  const { videoId } = await startAndUpload(call, input, `${pageId}/video_reels`, videos[0]!)
  await input.saveProgress({ headAttemptAt: input.now.toISOString() })
  await call('POST', `${pageId}/video_reels`, {
    json: {
      upload_phase: 'finish',
      video_id: videoId,
      video_state: 'PUBLISHED',
      description: literalText(input.content.text),
    },
  })
  const state: ReelPending = { stage: 'reel', videoId }
  await input.saveProgress({ headId: videoId, pending: state })
  return { status: 'pending', state, checkAfterSec: REEL_POLL_SEC }
}

/** A reel being processed and published: `ready` or a complete publishing phase publishes it. */
export async function reelPending(
  call: GraphCall,
  input: PendingInput,
  save: PendingInput['saveProgress'],
): Promise<PublishResult> {
  const state = input.progress.pending as ReelPending
  const video = await call('GET', state.videoId, { query: { fields: 'status' } })
  const status = video.status ?? {}
  const phases = [status.uploading_phase, status.processing_phase, status.publishing_phase]
  const failed = phases.find((p) => p?.status === 'error')
  if (FAILED_VIDEO_STATUSES.includes(status.video_status) || failed) {
    const reason =
      failed?.errors?.[0]?.message ??
      (status.video_status === 'expired' ? 'the upload expired before it was published' : null)
    throw new NetworkFailure('rejected', `${NETWORK}: the reel could not be published${reason ? `: ${reason}` : ''}.`)
  }
  if (status.video_status === 'ready' || status.publishing_phase?.status === 'complete') {
    await save({ headId: state.videoId })
    return { status: 'published', platformPostId: state.videoId, permalink: await permalinkOf(call, state.videoId) }
  }
  return { status: 'pending', state, checkAfterSec: REEL_POLL_SEC }
}

export async function publishStory(call: GraphCall, input: PublishInput, pageId: string): Promise<PublishResult> {
  const media = input.content.media
  if (media.length !== 1) throw new NetworkFailure('rejected', `${NETWORK}: a story takes exactly one photo or video.`)
  const item = media[0]!
  const warnings = input.content.text.trim() ? ["The caption was not used: the network's stories carry no text."] : []
  let postId: string
  if (item.type === 'IMAGE') {
    let photoId = typeof input.progress.storyPhotoId === 'string' ? input.progress.storyPhotoId : ''
    if (!photoId) {
      const photo = await call('POST', `${pageId}/photos`, { json: { url: item.url, published: false } })
      photoId = String(photo.id)
      await input.saveProgress({ storyPhotoId: photoId })
    }
    await input.saveProgress({ headAttemptAt: input.now.toISOString() })
    const story = await call('POST', `${pageId}/photo_stories`, { json: { photo_id: photoId } })
    postId = String(story.post_id)
  } else {
    const { videoId } = await startAndUpload(call, input, `${pageId}/video_stories`, item)
    await input.saveProgress({ headAttemptAt: input.now.toISOString() })
    const story = await call('POST', `${pageId}/video_stories`, { json: { upload_phase: 'finish', video_id: videoId } })
    postId = String(story.post_id)
  }
  await input.saveProgress({ headId: postId })
  return {
    status: 'published',
    platformPostId: postId,
    permalink: await permalinkOf(call, postId),
    ...(warnings.length ? { warnings } : {}),
  }
}
