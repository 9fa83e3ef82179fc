/**
 * The open-protocol network's media: image blobs, and videos through the network's video service
 * as a job the engine polls through its pending state; the embed a post's head carries.
 */
import type { PublishInput, PublishMedia, PublishProgress } from '../../adapter'
import { downloadMedia, MEDIA_TIMEOUT_MS, NetworkFailure } from '../../http'
import { NETWORK, xrpc, type Session } from './xrpc'

const MAX_IMAGE_BYTES = 1_000_000
/** Seconds between video job checks. */
export const VIDEO_POLL_SEC = 5
const JOB_FAILED = 'JOB_STATE_FAILED'
/**
 * A daily video quota (getUploadLimits: remainingDailyVideos / remainingDailyBytes) gives no reset
 * time; try again after this long.
 */
const VIDEO_QUOTA_RETRY_SEC = 3600

export interface StrongRef {
  uri: string
  cid: string
}
export interface BlobRef {
  $type: 'blob'
  ref: { $link: string }
  mimeType: string
  size: number
}
/** What a publish keeps between calls, beside headId / partIds. */
export interface OpenProgress extends PublishProgress {
  /** cid of each post of the thread, head first (reply refs need them). */
  cids?: string[]
  /** Uploaded image blobs, in media order. */
  blobs?: BlobRef[]
  /** The processed video's blob. */
  videoBlob?: BlobRef
  pending?: { videoJobId: string }
}

export interface Ctx {
  input: PublishInput
  session: Session
  progress: OpenProgress
  videoUrl: string
}

const aspectRatioOf = (m: PublishMedia) =>
  m.width && m.height ? { aspectRatio: { width: m.width, height: m.height } } : {}

/** The head's embed: images, a video (maybe still processing), a link card, or nothing. */
export async function headEmbed(ctx: Ctx): Promise<unknown | 'pending'> {
  const { input, progress } = ctx
  const media = input.content.media
  const video = media.find((m) => m.type === 'VIDEO')
  if (video) {
    const blob = progress.videoBlob ?? (await videoBlob(ctx, video))
    if (blob === 'pending') return 'pending'
    return {
      $type: 'app.bsky.embed.video',
      video: blob,
      ...(video.altText ? { alt: video.altText } : {}),
      ...aspectRatioOf(video),
    }
  }
  if (media.length > 0) {
    const blobs = [...(progress.blobs ?? [])]
    for (let i = blobs.length; i < media.length; i++) {
      blobs.push(await uploadImage(ctx, media[i]!))
      await input.saveProgress({ blobs: [...blobs] })
    }
    return {
      $type: 'app.bsky.embed.images',
      images: media.map((m, i) => ({ image: blobs[i], alt: m.altText ?? '', ...aspectRatioOf(m) })),
    }
  }
  if (input.content.linkUrl) {
    // No Open Graph fetch: the card names the link's host; the network's apps show it as is.
    const uri = input.content.linkUrl
    let title = uri
    try {
      title = new URL(uri).hostname
    } catch {
      // keep the URL itself as the title
    }
    return { $type: 'app.bsky.embed.external', external: { uri, title, description: '' } }
  }
  return undefined
}

async function uploadImage(ctx: Ctx, media: PublishMedia): Promise<BlobRef> {
  const { input, session } = ctx
  const bytes = await downloadMedia(input.fetch, media)
  if (bytes.byteLength > MAX_IMAGE_BYTES)
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: image ${media.id} is ${bytes.byteLength} bytes; the network takes at most ${MAX_IMAGE_BYTES}.`,
    )
  const answer = await xrpc(
    input.fetch,
    input.baseUrl,
    'com.atproto.repo.uploadBlob',
    {
      token: session.accessJwt,
      body: bytes as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': media.mimeType },
      timeoutMs: MEDIA_TIMEOUT_MS,
    },
    input.now,
  )
  return answer.blob as BlobRef
}

/** Uploads the video to the video service (once), then follows its job; 'pending' while it processes. */
async function videoBlob(ctx: Ctx, video: PublishMedia): Promise<BlobRef | 'pending'> {
  const { input, session, progress } = ctx
  let job: any
  if (progress.pending?.videoJobId) {
    job = (
      await xrpc(
        input.fetch,
        ctx.videoUrl,
        'app.bsky.video.getJobStatus',
        { params: { jobId: progress.pending.videoJobId } },
        input.now,
      )
    ).jobStatus
  } else {
    const bytes = await downloadMedia(input.fetch, video)
    await checkUploadLimits(ctx, bytes.byteLength)
    // did:web percent-encodes a port's colon.
    const pds = new URL(session.pdsUrl ?? input.baseUrl).host.replace(':', '%3A')
    const auth = await serviceAuth(ctx, `did:web:${pds}`, 'com.atproto.repo.uploadBlob', 30 * 60)
    const answer = await xrpc(
      input.fetch,
      ctx.videoUrl,
      'app.bsky.video.uploadVideo',
      {
        token: auth,
        params: { did: session.did, name: `${video.id}.mp4` },
        body: bytes as Uint8Array<ArrayBuffer>,
        headers: { 'content-type': 'video/mp4' },
        timeoutMs: MEDIA_TIMEOUT_MS,
      },
      input.now,
    )
    // The lexicon wraps the job in `jobStatus`; the docs' tutorial reads it at the top level.
    job = answer?.jobStatus ?? answer
  }
  // A blob is the answer even beside an error: `already_exists` hands back the earlier processed video.
  if (job?.blob) {
    const blob = job.blob as BlobRef
    await input.saveProgress({ videoBlob: blob, pending: undefined })
    progress.pending = undefined
    return blob
  }
  if (job?.state === JOB_FAILED) {
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: the video could not be processed${job.error || job.message ? ` (${job.message ?? job.error})` : ''}.`,
    )
  }
  if (!job?.jobId) throw new NetworkFailure('transient', `${NETWORK}: the video service gave no job id.`)
  progress.pending = { videoJobId: String(job.jobId) }
  return 'pending'
}

/** A service token from the PDS for `aud`, good for `lxm` only. */
async function serviceAuth(ctx: Ctx, aud: string, lxm: string, lifetimeSec: number): Promise<string> {
  const { input, session } = ctx
  const answer = await xrpc(
    input.fetch,
    input.baseUrl,
    'com.atproto.server.getServiceAuth',
    {
      token: session.accessJwt,
      params: { aud, lxm, exp: String(Math.floor(input.now.getTime() / 1000) + lifetimeSec) },
    },
    input.now,
  )
  return String(answer.token)
}

/**
 * app.bsky.video.getUploadLimits before uploading: a daily quota spent waits, any other refusal is
 * the service's words.
 */
async function checkUploadLimits(ctx: Ctx, size: number): Promise<void> {
  const { input } = ctx
  const token = await serviceAuth(
    ctx,
    `did:web:${new URL(ctx.videoUrl).host.replace(':', '%3A')}`,
    'app.bsky.video.getUploadLimits',
    60,
  )
  const limits = await xrpc(input.fetch, ctx.videoUrl, 'app.bsky.video.getUploadLimits', { token }, input.now)
  const quotaSpent =
    (typeof limits.remainingDailyVideos === 'number' && limits.remainingDailyVideos <= 0) ||
    (typeof limits.remainingDailyBytes === 'number' && limits.remainingDailyBytes < size)
  const words =
    typeof limits.message === 'string' && limits.message
      ? limits.message
      : typeof limits.error === 'string' && limits.error
        ? limits.error
        : null
  if (quotaSpent) {
    throw new NetworkFailure(
      'rate_limited',
      `${NETWORK}: ${words ?? 'the daily video upload limit is reached'} (videos left today: ${limits.remainingDailyVideos ?? '?'}, bytes left: ${limits.remainingDailyBytes ?? '?'}, this video: ${size}).`,
      VIDEO_QUOTA_RETRY_SEC,
    )
  }
  if (limits.canUpload === false)
    throw new NetworkFailure('rejected', `${NETWORK}: ${words ?? 'this account may not upload videos'}.`)
}
