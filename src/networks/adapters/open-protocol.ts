/**
 * The open-protocol network (Bluesky, AT Protocol): app-password sessions cached in the
 * credentials, posts as app.bsky.feed.post records under deterministic record keys (a retry can
 * never make a second post), rich-text facets, image / video / link-card embeds, self-threads as
 * reply chains of strong refs. Video goes through the network's video service as a job polled
 * through the engine's pending state.
 */
import type {
  NetworkAdapter,
  PendingInput,
  PublishInput,
  PublishMedia,
  PublishProgress,
  PublishResult,
} from '../adapter'
import { asFailedResult, downloadMedia, MEDIA_TIMEOUT_MS, NetworkFailure } from '../http'
import { metric, metricSum } from '../metrics'
import type { AdapterOptions } from './options'
import { facetsOf, mentionedHandles } from './open-protocol-facets'
import {
  createSession,
  isXrpcError,
  NETWORK,
  parseAtUri,
  recordKeyFor,
  requireSession,
  sessionRefresh,
  xrpc,
  type Session,
} from './open-protocol-xrpc'

const POST_COLLECTION = 'app.bsky.feed.post'
const MAX_IMAGE_BYTES = 1_000_000
/** Seconds between video job checks. */
const VIDEO_POLL_SEC = 5
/** app.bsky.feed.getPosts takes at most this many uris. */
const GET_POSTS_BATCH = 25
const JOB_FAILED = 'JOB_STATE_FAILED'
/**
 * A daily video quota (getUploadLimits: remainingDailyVideos / remainingDailyBytes) gives no reset
 * time; try again after this long.
 */
const VIDEO_QUOTA_RETRY_SEC = 3600

interface StrongRef {
  uri: string
  cid: string
}
interface BlobRef {
  $type: 'blob'
  ref: { $link: string }
  mimeType: string
  size: number
}
/** What a publish keeps between calls, beside headId / partIds. */
interface OpenProgress extends PublishProgress {
  /** cid of each post of the thread, head first (reply refs need them). */
  cids?: string[]
  /** Uploaded image blobs, in media order. */
  blobs?: BlobRef[]
  /** The processed video's blob. */
  videoBlob?: BlobRef
  pending?: { videoJobId: string }
}

interface Ctx {
  input: PublishInput
  session: Session
  progress: OpenProgress
  videoUrl: string
}

const permalinkOf = (session: Session, rkey: string) =>
  `https://bsky.app/profile/${session.handle || session.did}/post/${rkey}`

export function createOpenProtocolAdapter(options: AdapterOptions): NetworkAdapter {
  const videoUrl = options.origins.OPENPROTOCOL_NET_VIDEO_URL

  async function run(input: PublishInput | PendingInput): Promise<PublishResult> {
    try {
      const ctx: Ctx = {
        input,
        session: requireSession(input.credentials),
        progress: input.progress as OpenProgress,
        videoUrl,
      }
      if ('unconfirmed' in input && input.unconfirmed && !ctx.progress.headId) {
        const head = await readPost(ctx, 0)
        if (!head) return { status: 'absent' }
        await input.saveProgress({
          headId: head.uri,
          headPermalink: permalinkOf(ctx.session, parseAtUri(head.uri).rkey),
          cids: [head.cid],
        })
      }
      return await publishFlow(ctx)
    } catch (err) {
      return asFailedResult(err)
    }
  }

  return {
    publish: run,
    checkStatus: run,
    credentialRefresh: sessionRefresh,

    async verifyCredentials({ credentials, fetch: fetchImpl, baseUrl, now }) {
      const session = await createSession(fetchImpl, baseUrl, credentials, now)
      return { username: session.handle, externalId: session.did, credentials: { ...credentials, session } }
    },

    async fetchInsights({ credentials, posts, fetch: fetchImpl, baseUrl, now }) {
      const session = requireSession(credentials)
      const profile = await xrpc(
        fetchImpl,
        baseUrl,
        'app.bsky.actor.getProfile',
        { token: session.accessJwt, params: { actor: session.did } },
        now,
      )
      const views = new Map<string, any>()
      for (let i = 0; i < posts.length; i += GET_POSTS_BATCH) {
        const uris = posts.slice(i, i + GET_POSTS_BATCH).map((p) => p.platformPostId)
        const answer = await xrpc(
          fetchImpl,
          baseUrl,
          'app.bsky.feed.getPosts',
          { token: session.accessJwt, params: { uris } },
          now,
        )
        for (const view of answer.posts ?? []) views.set(view.uri, view)
      }
      return {
        followers: metric(profile.followersCount),
        posts: posts.map((p) => {
          const view = views.get(p.platformPostId)
          if (!view)
            return { targetId: p.targetId, likes: null, comments: null, shares: null, views: null, saves: null }
          return {
            targetId: p.targetId,
            likes: metric(view.likeCount),
            comments: metric(view.replyCount),
            shares: metricSum(view.repostCount, view.quoteCount),
            views: null,
            saves: null,
          }
        }),
      }
    },

    async deletePost({ credentials, platformPostId, fetch: fetchImpl, baseUrl }) {
      const session = requireSession(credentials)
      const { collection, rkey } = parseAtUri(platformPostId)
      await xrpc(
        fetchImpl,
        baseUrl,
        'com.atproto.repo.deleteRecord',
        { token: session.accessJwt, json: { repo: session.did, collection, rkey } },
        new Date(),
      )
    },
  }
}

async function publishFlow(ctx: Ctx): Promise<PublishResult> {
  const { input, progress, session } = ctx
  const texts = [input.content.text, ...input.content.threadParts]
  const cids = [...(progress.cids ?? [])]
  const uris = progress.headId ? [progress.headId, ...(progress.partIds ?? [])] : []
  if (uris.length === 0) {
    const embed = await headEmbed(ctx)
    if (embed === 'pending') return { status: 'pending', state: progress.pending, checkAfterSec: VIDEO_POLL_SEC }
    const head = await createPost(ctx, 0, texts[0]!, embed, null)
    uris.push(head.uri)
    cids[0] = head.cid
    await input.saveProgress({
      headId: head.uri,
      headPermalink: permalinkOf(session, parseAtUri(head.uri).rkey),
      cids: [...cids],
      partIds: [],
    })
  }
  for (let i = uris.length; i < texts.length; i++) {
    const root = { uri: uris[0]!, cid: cids[0]! }
    const parent = { uri: uris[i - 1]!, cid: cids[i - 1]! }
    const part = await createPost(ctx, i, texts[i]!, undefined, { root, parent })
    uris.push(part.uri)
    cids[i] = part.cid
    await input.saveProgress({ partIds: uris.slice(1), cids: [...cids] })
  }
  return {
    status: 'published',
    platformPostId: uris[0]!,
    permalink: progress.headPermalink ?? permalinkOf(session, parseAtUri(uris[0]!).rkey),
  }
}

/** Creates post `index` under its deterministic record key; an existing record there is the same post, read back. */
async function createPost(
  ctx: Ctx,
  index: number,
  text: string,
  embed: unknown,
  reply: { root: StrongRef; parent: StrongRef } | null,
): Promise<StrongRef> {
  const { input, session } = ctx
  const rkey = await recordKeyFor(input.idempotencyKey, index)
  const record = {
    $type: POST_COLLECTION,
    text,
    createdAt: input.now.toISOString(),
    ...(await facetsFor(ctx, text)),
    ...(embed ? { embed } : {}),
    ...(reply ? { reply } : {}),
  }
  try {
    const created = await xrpc(
      input.fetch,
      input.baseUrl,
      'com.atproto.repo.createRecord',
      { token: session.accessJwt, json: { repo: session.did, collection: POST_COLLECTION, rkey, record } },
      input.now,
    )
    return { uri: String(created.uri), cid: String(created.cid) }
  } catch (err) {
    // Older servers answer a taken record key with a 500, newer ones with RecordAlreadyExists.
    const maybeExists =
      isXrpcError(err, 'RecordAlreadyExists') || (err instanceof NetworkFailure && err.kind === 'transient')
    if (!maybeExists) throw err
    // A read-back the network cannot answer leaves the first failure to report; a bug of ours goes up.
    const existing = await readPost(ctx, index).catch((readErr) => {
      if (readErr instanceof NetworkFailure) return null
      throw readErr
    })
    if (existing) return existing
    throw err
  }
}

/** The post at part `index`'s record key, or null when the server has none. */
async function readPost(ctx: Pick<Ctx, 'input' | 'session'>, index: number): Promise<StrongRef | null> {
  const { input, session } = ctx
  const rkey = await recordKeyFor(input.idempotencyKey, index)
  try {
    const found = await xrpc(
      input.fetch,
      input.baseUrl,
      'com.atproto.repo.getRecord',
      { token: session.accessJwt, params: { repo: session.did, collection: POST_COLLECTION, rkey } },
      input.now,
    )
    return { uri: String(found.uri), cid: String(found.cid) }
  } catch (err) {
    if (isXrpcError(err, 'RecordNotFound')) return null
    throw err
  }
}

async function facetsFor(ctx: Pick<Ctx, 'input' | 'session'>, text: string): Promise<{ facets?: unknown[] }> {
  const dids = new Map<string, string>()
  for (const handle of mentionedHandles(text)) {
    try {
      const answer = await xrpc(
        ctx.input.fetch,
        ctx.input.baseUrl,
        'com.atproto.identity.resolveHandle',
        { token: ctx.session.accessJwt, params: { handle } },
        ctx.input.now,
      )
      if (typeof answer.did === 'string') dids.set(handle, answer.did)
    } catch (err) {
      // An unknown handle stays plain text; anything else (rate limit, outage) is worth a retry.
      if (!(err instanceof NetworkFailure) || err.kind !== 'rejected') throw err
    }
  }
  const facets = facetsOf(text, dids)
  return facets.length ? { facets } : {}
}

const aspectRatioOf = (m: PublishMedia) =>
  m.width && m.height ? { aspectRatio: { width: m.width, height: m.height } } : {}

/** The head's embed: images, a video (maybe still processing), a link card, or nothing. */
async function headEmbed(ctx: Ctx): Promise<unknown | 'pending'> {
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
