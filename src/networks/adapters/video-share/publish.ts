/**
 * Publishing one video on the video-sharing network, exactly once: the resumable upload session
 * (its URI saved the moment YouTube gives it; an interrupted upload resumes from the byte YouTube
 * reports, PUT `bytes *\/total`, and never makes a second video), the video id saved the moment
 * the last chunk is taken, then its processing followed through `pending` (videos.list
 * status/processingDetails).
 */
import type { PendingInput, PublishInput, PublishResult } from '../../adapter'
import { MEDIA_TIMEOUT_MS, NetworkFailure, credential, downloadMedia, joinUrl, request } from '../../http'
import {
  CATEGORY_ID,
  FAILURE_REASONS,
  MAX_PROCESSING_POLLS,
  NETWORK,
  PRIVACY_STATUS,
  PROCESSING_POLL_SEC,
  REJECTION_REASONS,
  UPLOAD_CHUNK_BYTES,
  api,
  failureFrom,
  permalinkOf,
  videoText,
} from './api'

interface Pending {
  videoId: string
  polls: number
}

type SessionAnswer = { resource: any } | { offset: number } | { expired: true }

/** Where a pending or unconfirmed publish stands: processing followed, the upload resumed, or asked of its session. */
export async function checkVideo(input: PendingInput): Promise<PublishResult> {
  const pending = input.progress.pending as Pending | undefined
  if (pending?.videoId) return await processing(input, pending.videoId, pending.polls ?? 0)
  if (input.progress.headId) return await processing(input, input.progress.headId, 0)
  if (!input.unconfirmed) return await publishVideo(input)
  // Lost track mid-publish: only a completed upload session makes a video.
  const sessionUri = sessionOf(input)
  if (!sessionUri) return { status: 'absent' }
  const total = input.content.media.find((m) => m.type === 'VIDEO')?.sizeBytes ?? 0
  const answer = await askSession(input, sessionUri, total)
  if (!('resource' in answer)) return { status: 'absent' }
  return await uploaded(input, answer.resource)
}

const sessionOf = (input: PublishInput): string | undefined =>
  (input.progress.videoShare as { sessionUri?: string } | undefined)?.sessionUri

/** One step of the publish: the upload, started or resumed, then the video's processing. */
export async function publishVideo(input: PublishInput): Promise<PublishResult> {
  if (input.progress.headId) return processing(input, input.progress.headId, 0)
  const video = input.content.media.find((m) => m.type === 'VIDEO')
  if (!video) throw new NetworkFailure('rejected', `${NETWORK}: a post needs one video.`)
  const token = credential(input.credentials, 'accessToken')
  const bytes = await downloadMedia(input.fetch, video)
  const total = bytes.byteLength
  let sessionUri = sessionOf(input)
  let offset = 0
  if (sessionUri) {
    const answer = await askSession(input, sessionUri, total)
    if ('resource' in answer) return uploaded(input, answer.resource)
    if ('offset' in answer) offset = answer.offset
    else sessionUri = undefined
  }
  if (!sessionUri) {
    const { title, description } = videoText(input.content.text)
    const started = await request(
      input.fetch,
      NETWORK,
      joinUrl(input.baseUrl, '/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status'),
      {
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json; charset=UTF-8',
          'x-upload-content-length': String(total),
          'x-upload-content-type': video.mimeType,
        },
        json: {
          snippet: { title, description, categoryId: CATEGORY_ID },
          status: { privacyStatus: PRIVACY_STATUS, selfDeclaredMadeForKids: false },
        },
      },
    )
    if (started.status >= 300) throw failureFrom(started, input.now)
    const location = started.headers.get('location')
    if (!location) throw new NetworkFailure('transient', `${NETWORK}: the upload session started without a location.`)
    sessionUri = location
    await input.saveProgress({ ...input.progress, videoShare: { sessionUri } })
  }
  while (offset < total) {
    const end = Math.min(offset + UPLOAD_CHUNK_BYTES, total) - 1
    const answer = await request(input.fetch, NETWORK, sessionUri, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': video.mimeType,
        'content-range': `bytes ${offset}-${end}/${total}`,
      },
      body: bytes.slice(offset, end + 1),
      timeoutMs: MEDIA_TIMEOUT_MS,
    })
    if (answer.status === 200 || answer.status === 201) return uploaded(input, answer.body)
    if (answer.status === 308) {
      offset = rangeEnd(answer.headers.get('range'))
      continue
    }
    if (answer.status === 404 || answer.status === 410) {
      await input.saveProgress({ ...input.progress, videoShare: {} })
      throw new NetworkFailure('transient', `${NETWORK}: the upload session expired; the upload starts again.`)
    }
    throw failureFrom(answer, input.now, answer.status >= 500 ? 'the upload was interrupted: ' : '')
  }
  throw new NetworkFailure('transient', `${NETWORK}: the upload ended without a video.`)
}

/** Next byte to send from a 308's `Range: bytes=0-N` (none: nothing was kept). */
const rangeEnd = (range: string | null): number => {
  const m = range ? /bytes=\d+-(\d+)/.exec(range) : null
  return m ? Number(m[1]) + 1 : 0
}

/** Asks an upload session how far it got (Google resumable protocol: an empty PUT `bytes *\/total`). */
async function askSession(input: PublishInput, sessionUri: string, total: number): Promise<SessionAnswer> {
  const answer = await request(input.fetch, NETWORK, sessionUri, {
    method: 'PUT',
    headers: {
      authorization: `Bearer ${credential(input.credentials, 'accessToken')}`,
      'content-range': `bytes */${total}`,
    },
    body: new Uint8Array(0),
  })
  if (answer.status === 200 || answer.status === 201) return { resource: answer.body }
  if (answer.status === 308) return { offset: rangeEnd(answer.headers.get('range')) }
  if (answer.status === 404 || answer.status === 410) return { expired: true }
  throw failureFrom(answer, input.now)
}

/** The video exists: save its id at once, then follow its processing. */
async function uploaded(input: PublishInput, resource: any): Promise<PublishResult> {
  const videoId = typeof resource?.id === 'string' ? resource.id : null
  if (!videoId) throw new NetworkFailure('transient', `${NETWORK}: the upload finished without a video id.`)
  await input.saveProgress({ ...input.progress, headId: videoId, headPermalink: permalinkOf(videoId) })
  return { status: 'pending', state: { videoId, polls: 0 } satisfies Pending, checkAfterSec: PROCESSING_POLL_SEC }
}

const reasonWords = (table: Record<string, string>, code: unknown): string =>
  typeof code === 'string' ? `${table[code] ?? code} (${code})` : 'an unknown reason'

async function processing(input: PublishInput, videoId: string, polls: number): Promise<PublishResult> {
  const token = credential(input.credentials, 'accessToken')
  const body = await api(
    input.fetch,
    input.baseUrl,
    token,
    `/youtube/v3/videos?part=status,processingDetails&id=${encodeURIComponent(videoId)}`,
    input.now,
  )
  const video = body.items?.[0]
  if (!video)
    return {
      status: 'failed',
      kind: 'rejected',
      message: `${NETWORK}: the uploaded video no longer exists (deleted on YouTube).`,
    }
  const status = video.status ?? {}
  switch (status.uploadStatus) {
    case 'failed':
      return {
        status: 'failed',
        kind: 'rejected',
        message: `${NETWORK}: processing failed: ${reasonWords(FAILURE_REASONS, status.failureReason)}.`,
      }
    case 'rejected':
      return {
        status: 'failed',
        kind: 'rejected',
        message: `${NETWORK}: YouTube rejected the video: ${reasonWords(REJECTION_REASONS, status.rejectionReason)}.`,
      }
    case 'deleted':
      return { status: 'failed', kind: 'rejected', message: `${NETWORK}: the video was deleted on YouTube.` }
  }
  const stillProcessing =
    status.uploadStatus === 'uploaded' && video.processingDetails?.processingStatus === 'processing'
  if (stillProcessing && polls < MAX_PROCESSING_POLLS)
    return {
      status: 'pending',
      state: { videoId, polls: polls + 1 } satisfies Pending,
      checkAfterSec: PROCESSING_POLL_SEC,
    }
  const warnings: string[] = []
  if (stillProcessing)
    warnings.push('YouTube is still processing the video; it becomes watchable when processing ends.')
  if (status.privacyStatus && status.privacyStatus !== PRIVACY_STATUS)
    warnings.push(
      `YouTube made the video ${String(status.privacyStatus)} (uploads from an unaudited API project stay private).`,
    )
  return {
    status: 'published',
    platformPostId: videoId,
    permalink: permalinkOf(videoId),
    ...(warnings.length ? { warnings } : {}),
  }
}
