/**
 * The microblog network (X API v2, OAuth 2.0 user tokens). A post: media uploaded in chunks
 * (processing polled through `pending`), the head post, then each thread part replying to the one
 * before. The network has no idempotency key: before each post is sent, what is being sent is
 * saved; an attempt whose answer was lost is settled from the account's own timeline
 * (sent.ts) instead of being sent again.
 */
import type { Insights, NetworkAdapter, PublishInput, PublishProgress, PublishResult } from '../../adapter'
import { asFailedResult, credential, NetworkFailure } from '../../http'
import { metric, metricSum } from '../../metrics'
import { oauthRefresh, type OAuthRenewal } from '../../oauth'
import { api, failureOfAnswer, mediaStatus, NETWORK, postIdOf, tokenFailure, uploadMedia, type Api } from './api'
import { captionBudgetOf, ME_WITH_TIER, withBudgetLookup } from './budget'
import { findSent, tooSoonToTell, type Sending } from './sent'
import type { AdapterOptions } from '../options'
import * as inbox from './inbox'

/**
 * Renewal of the access token (it lasts 2 h; renewed 5 minutes before it runs out). The client's
 * id goes in the form; a confidential client (one with a secret) also authenticates with HTTP Basic.
 */
const TOKEN_RENEWAL: OAuthRenewal = {
  network: NETWORK,
  tokenPath: '/2/oauth2/token',
  clientAuth: { basic: true, idField: 'client_id', secretOptional: true },
  refreshMarginSec: 300,
  defaultLifetimeSec: 7200,
  successStatus: 200,
  failure: tokenFailure,
}
/** A 403 on a quote whose words say quoting is not allowed (the network sells quoting with a plan). */
const QUOTE_REFUSED = /quot/i
/**
 * A media id is usable for `expires_after_secs` only (a later post with it is refused); one this
 * close to its end when the post is about to go out is uploaded again rather than risked.
 */
const MEDIA_EXPIRY_MARGIN_SEC = 600
/** Post ids per metrics lookup (the endpoint's maximum). */
const METRICS_BATCH = 100
/** Our metric names from the network's `public_metrics`. */
const METRICS = {
  likes: (m: any) => metric(m.like_count),
  comments: (m: any) => metric(m.reply_count),
  shares: (m: any) => metricSum(m.retweet_count ?? m.repost_count, m.quote_count),
  views: (m: any) => metric(m.impression_count),
  saves: (m: any) => metric(m.bookmark_count),
}

interface MediaState {
  id: string
  ready: boolean
  /** When the network stops taking this id (ISO). */
  expiresAt?: string
}

const expiring = (state: MediaState, now: Date) =>
  state.expiresAt !== undefined && Date.parse(state.expiresAt) - now.getTime() <= MEDIA_EXPIRY_MARGIN_SEC * 1000

const permalinkOf = (credentials: Record<string, unknown>, id: string) =>
  typeof credentials.username === 'string' && credentials.username
    ? `https://x.com/${credentials.username}/status/${id}`
    : `https://x.com/i/web/status/${id}`

const clientFor = (
  input: PublishInput | { credentials: Record<string, unknown>; fetch: typeof fetch; baseUrl: string; now: Date },
) => api(input.fetch, input.baseUrl, credential(input.credentials, 'accessToken'), input.now)

/** Media ids on the network, uploading what is not there yet; null while the network still processes some. */
async function mediaIds(input: PublishInput, x: Api): Promise<{ ids: string[]; waitSec: number | null }> {
  const saved = { ...((input.progress.media as Record<string, MediaState> | undefined) ?? {}) }
  let waitSec: number | null = null
  for (const media of input.content.media) {
    let state = saved[media.id]
    if (!state || expiring(state, input.now)) {
      const uploaded = await uploadMedia(x, input.fetch, media)
      state = { id: uploaded.id, ready: uploaded.checkAfterSec === undefined }
      if (uploaded.expiresAfterSec !== undefined)
        state.expiresAt = new Date(input.now.getTime() + uploaded.expiresAfterSec * 1000).toISOString()
      saved[media.id] = state
      await input.saveProgress({ media: { ...saved } })
      if (uploaded.checkAfterSec !== undefined) waitSec = Math.max(waitSec ?? 0, uploaded.checkAfterSec)
    } else if (!state.ready) {
      const wait = await mediaStatus(x, state.id)
      if (wait === undefined) {
        saved[media.id] = { ...state, ready: true }
        await input.saveProgress({ media: { ...saved } })
      } else waitSec = Math.max(waitSec ?? 0, wait)
    }
  }
  return { ids: input.content.media.map((m) => saved[m.id]!.id), waitSec }
}

/**
 * Sends one post (head or part) unless an earlier attempt's lost answer is found to have created
 * it. Progress says what is being sent before the request, and what was created right after.
 */
async function sendPost(
  input: PublishInput,
  x: Api,
  step: number,
  text: string,
  body: Record<string, unknown>,
  replyTo: string | null,
): Promise<string> {
  const userId = credential(input.credentials, 'userId')
  const marker = input.progress.sending as Sending | null | undefined
  if (marker && marker.step === step) {
    const found = await findSent(x, userId, marker)
    if (found) return found
    const wait = tooSoonToTell(marker, input.now)
    if (wait !== null)
      throw new NetworkFailure(
        'transient',
        `${NETWORK} has not answered whether the last attempt went out; checking again shortly.`,
        wait,
      )
  }
  await input.saveProgress({ sending: { step, at: input.now.toISOString(), text, replyTo } satisfies Sending })
  const answer = await x.raw('POST', '/2/tweets', { json: body })
  if (answer.status >= 200 && answer.status < 300 && answer.body?.data?.id) return String(answer.body.data.id)
  // A refusal (4xx) created nothing; a 5xx may have, and stays to be looked up.
  if (answer.status >= 400 && answer.status < 500) await input.saveProgress({ sending: null })
  throw failureOfAnswer(answer, input.now)
}

async function postHead(input: PublishInput, x: Api, media: string[]): Promise<string> {
  const c = input.content
  const body: Record<string, unknown> = {}
  if (media.length) body.media = { media_ids: media }
  if (c.replyToMicropostId) body.reply = { in_reply_to_tweet_id: postIdOf(c.replyToMicropostId) }
  const replyTo = c.replyToMicropostId ? postIdOf(c.replyToMicropostId) : null
  const quoteId = c.quoteMicropostId ? postIdOf(c.quoteMicropostId) : null
  // Media and a quote cannot go together; without the plan that allows quoting, the URL goes in the text.
  const quoteAsUrl = quoteId !== null && (media.length > 0 || input.progress.quoteAsUrl === true)
  if (quoteId && !quoteAsUrl) {
    try {
      return await sendPost(input, x, -1, c.text, { ...body, text: c.text, quote_tweet_id: quoteId }, replyTo)
    } catch (err) {
      if (!(err instanceof NetworkFailure) || err.kind !== 'rejected' || !QUOTE_REFUSED.test(err.message)) throw err
      await input.saveProgress({ quoteAsUrl: true })
    }
  }
  const quoteUrl = quoteId
    ? /^https?:/i.test(c.quoteMicropostId!.trim())
      ? c.quoteMicropostId!.trim()
      : `https://x.com/i/web/status/${quoteId}`
    : null
  const text = quoteUrl ? (c.text ? `${c.text} ${quoteUrl}` : quoteUrl) : c.text
  return sendPost(input, x, -1, text, { ...body, text }, replyTo)
}

/** The whole post from wherever the progress says it stopped. */
async function run(input: PublishInput): Promise<PublishResult> {
  const x = clientFor(input)
  let headId = input.progress.headId
  if (!headId) {
    const media = await mediaIds(input, x)
    if (media.waitSec !== null)
      return { status: 'pending', state: { media: 'processing' }, checkAfterSec: media.waitSec }
    headId = await postHead(input, x, media.ids)
    await input.saveProgress({ headId, headPermalink: permalinkOf(input.credentials, headId), sending: null })
  }
  const partIds = [...(input.progress.partIds ?? [])]
  for (let i = partIds.length; i < input.content.threadParts.length; i++) {
    const replyTo = partIds[i - 1] ?? headId
    const text = input.content.threadParts[i]!
    partIds.push(await sendPost(input, x, i, text, { text, reply: { in_reply_to_tweet_id: replyTo } }, replyTo))
    await input.saveProgress({ partIds: [...partIds], sending: null })
  }
  return { status: 'published', platformPostId: headId, permalink: permalinkOf(input.credentials, headId) }
}

export function createMicroblogAdapter(options: AdapterOptions): NetworkAdapter {
  return {
    listPosts: inbox.listPosts,
    listComments: inbox.listComments,
    listMentions: inbox.listMentions,
    replyToComment: inbox.replyToComment,
    hideComment: inbox.hideComment,
    deleteComment: inbox.deleteComment,
    likeComment: inbox.likeComment,

    async publish(input) {
      try {
        return await run(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async checkStatus(input) {
      try {
        const progress: PublishProgress = input.progress
        // Lost track before anything was sent: surely absent. Otherwise settle the open step and go on.
        if (input.unconfirmed && !progress.headId && !progress.sending) return { status: 'absent' }
        return await run(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async verifyCredentials(input) {
      // A hosted connect knows no user id yet: the token's own user is the account.
      const given = input.credentials.userId
      const me = await clientFor(input).call('GET', ME_WITH_TIER)
      const id = String(me.data?.id ?? '')
      const username = String(me.data?.username ?? '')
      const userId = given === undefined ? id : credential(input.credentials, 'userId')
      if (!id || id !== userId) {
        throw new NetworkFailure(
          'rejected',
          `${NETWORK}: the access token belongs to @${username} (user id ${id}), not to user id ${userId}.`,
        )
      }
      return {
        username,
        externalId: id,
        credentials: { ...input.credentials, userId: id, username },
        captionMaxLength: captionBudgetOf(me.data),
      }
    },

    credentialRefresh: withBudgetLookup(oauthRefresh(TOKEN_RENEWAL, options.clients.MICROBLOG_NET)),

    async fetchInsights(input): Promise<Insights> {
      const x = clientFor(input)
      const me = await x.call('GET', '/2/users/me?user.fields=public_metrics')
      const followers = metric(me.data?.public_metrics?.followers_count)
      const metrics = new Map<string, any>()
      const ids = [...new Set(input.posts.map((p) => p.platformPostId))]
      for (let i = 0; i < ids.length; i += METRICS_BATCH) {
        const batch = ids.slice(i, i + METRICS_BATCH)
        const answer = await x.call(
          'GET',
          `/2/tweets?ids=${batch.map(encodeURIComponent).join(',')}&tweet.fields=public_metrics`,
        )
        for (const t of Array.isArray(answer.data) ? answer.data : []) metrics.set(String(t.id), t.public_metrics ?? {})
      }
      return {
        followers,
        posts: input.posts.map((p) => {
          const m = metrics.get(p.platformPostId)
          if (!m) return { targetId: p.targetId, likes: null, comments: null, shares: null, views: null, saves: null }
          return {
            targetId: p.targetId,
            likes: METRICS.likes(m),
            comments: METRICS.comments(m),
            shares: METRICS.shares(m),
            views: METRICS.views(m),
            saves: METRICS.saves(m),
            impressions: METRICS.views(m),
          }
        }),
      }
    },

    async deletePost(input) {
      const answer = await clientFor(input).raw('DELETE', `/2/tweets/${encodeURIComponent(input.platformPostId)}`)
      // Already gone is what was asked for.
      if ((answer.status >= 200 && answer.status < 300) || answer.status === 404) return
      throw failureOfAnswer(answer, input.now)
    },
  }
}
