/**
 * The federated network (Mastodon API, on the account's own instance): media uploaded once each
 * (video processed asynchronously, polled through the engine's pending state), statuses posted
 * with an Idempotency-Key per thread part so a retried call returns the status already made,
 * threads as in_reply_to_id chains. Text goes out exactly as written: the network treats it as
 * plain text (it links URLs, hashtags and @mentions itself; mentioned accounts are notified).
 */
import type {
  NetworkAdapter,
  PendingInput,
  PublishInput,
  PublishMedia,
  PublishProgress,
  PublishResult,
} from '../../adapter'
import { asFailedResult, credential, downloadMedia, joinUrl, MEDIA_TIMEOUT_MS, NetworkFailure } from '../../http'
import { metric } from '../../metrics'
import type { AdapterOptions } from '../options'
import { api, NETWORK } from './api'
import * as inbox from './inbox'

/** Seconds between checks of media still processing. */
const MEDIA_POLL_SEC = 5
/**
 * The server keeps an Idempotency-Key for one hour; an unconfirmed publish is settled by posting
 * again with the same key only well inside that window.
 */
const IDEMPOTENCY_WINDOW_SEC = 55 * 60
const VISIBILITY = 'public'
/** The instance's words for a status whose media is not processed yet. */
const STILL_PROCESSING = /not finished processing/i

interface FederatedProgress extends PublishProgress {
  /** Media ids the instance gave our uploads, in media order (never uploaded twice). */
  mediaIds?: string[]
  /** When the first status POST carrying our Idempotency-Key was about to be sent. */
  keyIssuedAt?: string
  pending?: { processing: string[] }
}

interface Ctx {
  input: PublishInput
  progress: FederatedProgress
  token: string
}

export function createFederatedAdapter(_options: AdapterOptions): NetworkAdapter {
  async function run(input: PublishInput | PendingInput): Promise<PublishResult> {
    try {
      const ctx: Ctx = {
        input,
        progress: input.progress as FederatedProgress,
        token: credential(input.credentials, 'accessToken'),
      }
      if ('unconfirmed' in input && input.unconfirmed && !ctx.progress.headId) {
        const issuedAt = ctx.progress.keyIssuedAt ? Date.parse(ctx.progress.keyIssuedAt) : NaN
        // No status was ever sent (the key is stamped before the first one): surely absent.
        if (Number.isNaN(issuedAt)) return { status: 'absent' }
        if (input.now.getTime() - issuedAt > IDEMPOTENCY_WINDOW_SEC * 1000) {
          return {
            status: 'failed',
            kind: 'transient',
            message: `${NETWORK}: the instance no longer remembers this publish's idempotency key, so whether it went out cannot be told.`,
          }
        }
        // Inside the window, the same key gets the status already made back (or makes it once).
      }
      return await publishFlow(ctx)
    } catch (err) {
      return asFailedResult(err)
    }
  }

  return {
    publish: run,
    checkStatus: run,
    listPosts: inbox.listPosts,
    listComments: inbox.listComments,
    listMentions: inbox.listMentions,
    replyToComment: inbox.replyToComment,
    deleteComment: inbox.deleteComment,
    likeComment: inbox.likeComment,

    async verifyCredentials({ credentials, fetch: fetchImpl, baseUrl, now }) {
      const answer = await api(
        { input: { fetch: fetchImpl, baseUrl, now }, token: credential(credentials, 'accessToken') },
        'api/v1/accounts/verify_credentials',
      )
      const account = answer.body ?? {}
      return { username: String(account.acct ?? account.username ?? ''), externalId: String(account.id), credentials }
    },

    async fetchInsights({ credentials, posts, fetch: fetchImpl, baseUrl, now }) {
      const ctx = { input: { fetch: fetchImpl, baseUrl, now }, token: credential(credentials, 'accessToken') }
      const me = (await api(ctx, 'api/v1/accounts/verify_credentials')).body
      const results = []
      for (const post of posts) {
        try {
          const status = (await api(ctx, `api/v1/statuses/${encodeURIComponent(post.platformPostId)}`)).body
          results.push({
            targetId: post.targetId,
            likes: metric(status?.favourites_count),
            comments: metric(status?.replies_count),
            shares: metric(status?.reblogs_count),
            views: null,
            saves: null,
          })
        } catch (err) {
          // A status deleted on the network reports nothing any more.
          if (!(err instanceof NetworkFailure) || err.kind !== 'rejected') throw err
          results.push({ targetId: post.targetId, likes: null, comments: null, shares: null, views: null, saves: null })
        }
      }
      return { followers: metric(me?.followers_count), posts: results }
    },

    async deletePost({ credentials, platformPostId, fetch: fetchImpl, baseUrl, now }) {
      try {
        await api(
          { input: { fetch: fetchImpl, baseUrl, now }, token: credential(credentials, 'accessToken') },
          `api/v1/statuses/${encodeURIComponent(platformPostId)}`,
          { method: 'DELETE' },
        )
      } catch (err) {
        // Already gone is what a delete wants.
        if (!(err instanceof NetworkFailure) || !/not found/i.test(err.message)) throw err
      }
    },
  }
}

async function publishFlow(ctx: Ctx): Promise<PublishResult> {
  const { input, progress } = ctx
  const texts = [input.content.text, ...input.content.threadParts]
  const ids = progress.headId ? [progress.headId, ...(progress.partIds ?? [])] : []
  let permalink = progress.headPermalink
  if (ids.length === 0) {
    const media = await mediaIds(ctx)
    if (media === 'pending') return { status: 'pending', state: progress.pending, checkAfterSec: MEDIA_POLL_SEC }
    if (!progress.keyIssuedAt) await input.saveProgress({ keyIssuedAt: input.now.toISOString() })
    let head: { id: string; url: string }
    try {
      head = await postStatus(ctx, 0, texts[0]!, media, null)
    } catch (err) {
      // Media still processing (its pending state was lost to a retry): wait for it again.
      if (!(err instanceof NetworkFailure) || err.kind !== 'rejected' || !STILL_PROCESSING.test(err.message)) throw err
      progress.pending = { processing: media }
      return { status: 'pending', state: progress.pending, checkAfterSec: MEDIA_POLL_SEC }
    }
    ids.push(head.id)
    permalink = head.url
    await input.saveProgress({ headId: head.id, headPermalink: head.url, partIds: [] })
  }
  for (let i = ids.length; i < texts.length; i++) {
    const part = await postStatus(ctx, i, texts[i]!, [], ids[i - 1]!)
    ids.push(part.id)
    await input.saveProgress({ partIds: ids.slice(1) })
  }
  return {
    status: 'published',
    platformPostId: ids[0]!,
    permalink: permalink ?? joinUrl(input.baseUrl, `statuses/${ids[0]}`),
  }
}

/** POST /api/v1/statuses under this part's Idempotency-Key: a repeat gets the same status back. */
async function postStatus(
  ctx: Ctx,
  index: number,
  text: string,
  media: string[],
  replyTo: string | null,
): Promise<{ id: string; url: string }> {
  const answer = await api(ctx, 'api/v1/statuses', {
    method: 'POST',
    headers: { 'idempotency-key': `${ctx.input.idempotencyKey}:${index}` },
    json: {
      status: text,
      visibility: VISIBILITY,
      ...(media.length ? { media_ids: media } : {}),
      ...(replyTo ? { in_reply_to_id: replyTo } : {}),
    },
  })
  const status = answer.body ?? {}
  if (status.id === undefined)
    throw new NetworkFailure('transient', `${NETWORK}: the instance answered without a status.`)
  return { id: String(status.id), url: statusPage(ctx.input.baseUrl, status) }
}

/**
 * The status's web page. `url` (its HTML page) is nullable in the Status entity; `uri` is its
 * ActivityPub id, which the instance also answers in a browser. Without either, the page the
 * documented form names: `<account url>/<id>` (`https://instance/@alice/<id>`), else the
 * instance's own `/statuses/<id>` (a path its web app serves).
 */
function statusPage(baseUrl: string, status: Record<string, any>): string {
  const id = String(status.id)
  if (typeof status.url === 'string' && status.url) return status.url
  if (typeof status.uri === 'string' && status.uri) return status.uri
  const profile = status.account?.url
  if (typeof profile === 'string' && /^https?:\/\//.test(profile))
    return `${profile.replace(/\/+$/, '')}/${encodeURIComponent(id)}`
  return joinUrl(baseUrl, `statuses/${encodeURIComponent(id)}`)
}

/** Uploads what is not uploaded yet, then waits for processing; the ids when all are ready. */
async function mediaIds(ctx: Ctx): Promise<string[] | 'pending'> {
  const { input, progress } = ctx
  const media = input.content.media
  const ids = [...(progress.mediaIds ?? [])]
  let processing = [...(progress.pending?.processing ?? [])]
  for (let i = ids.length; i < media.length; i++) {
    const uploaded = await upload(ctx, media[i]!)
    ids.push(uploaded.id)
    if (uploaded.processing) processing.push(uploaded.id)
    await input.saveProgress({ mediaIds: [...ids] })
  }
  const still: string[] = []
  for (const id of processing) {
    const answer = await api(ctx, `api/v1/media/${encodeURIComponent(id)}`)
    if (answer.status === 206 || !answer.body?.url) still.push(id)
  }
  processing = still
  progress.pending = processing.length ? { processing } : undefined
  if (processing.length) return 'pending'
  return ids
}

async function upload(ctx: Ctx, media: PublishMedia): Promise<{ id: string; processing: boolean }> {
  const bytes = await downloadMedia(ctx.input.fetch, media)
  const form = new FormData()
  const extension = media.mimeType.split('/')[1] ?? 'bin'
  form.append(
    'file',
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: media.mimeType }),
    `${media.id}.${extension}`,
  )
  if (media.altText) form.append('description', media.altText)
  const answer = await api(ctx, 'api/v2/media', { method: 'POST', body: form, timeoutMs: MEDIA_TIMEOUT_MS })
  if (answer.body?.id === undefined)
    throw new NetworkFailure('transient', `${NETWORK}: the instance answered the upload without a media id.`)
  return { id: String(answer.body.id), processing: answer.status === 202 || !answer.body.url }
}
