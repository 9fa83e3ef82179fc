/**
 * The text-thread network (Threads API, graph.threads.net). Every post is a container the network
 * builds (pulling our media from its public URL), polled through `pending` until FINISHED, then
 * published; a carousel is child containers under a CAROUSEL parent. Thread parts are TEXT posts
 * each replying to the one before, published in turn, their ids saved as they go. A container
 * already PUBLISHED (its publish answer was lost) is looked up among the account's recent posts or
 * replies, never published again. The network reports insights, but this service collects none
 * from it (rules); posts can be deleted.
 */
import type {
  DeleteInput,
  NetworkAdapter,
  PublishInput,
  PublishMedia,
  PublishResult,
  RefreshInput,
  TargetContent,
  VerifyInput,
} from '../../adapter'
import { NetworkFailure, credential, expiresWithin } from '../../http'
import {
  accountGraph,
  containerOps,
  headOutcome,
  progressOf,
  publishSteps,
  savePermalink,
  type GraphHost,
} from '../meta/container-publish'
import {
  driveContainers,
  refreshLongLivedToken,
  type ContainerPlan,
  type ContainerState,
  type Params,
} from '../meta/containers'
import type { AdapterOptions } from '../options'
import { hideThreadReply, listThreadMentions, listThreadPosts, listThreadReplies, replyToThread } from './inbox'

const N = 'TEXTTHREAD_NET'
/** The Threads API version in every path. */
export const TEXTTHREAD_API_VERSION = 'v1.0'
/** Seconds between container checks (Meta suggests about 30 s before publishing media). */
export const TEXTTHREAD_POLL_SEC = 15
/** Long-lived tokens (60 days) are renewed with this much left; a token must be 24 h old to renew. */
export const TEXTTHREAD_REFRESH_MARGIN_SEC = 7 * 24 * 3600
/** Recent posts (or replies) searched for one whose publish answer was lost. */
export const TEXTTHREAD_RECOVERY_LIST_LIMIT = 25

const HOST: GraphHost = { network: N, version: TEXTTHREAD_API_VERSION }

const item = (m: PublishMedia): Params => ({
  ...(m.type === 'VIDEO' ? { media_type: 'VIDEO', video_url: m.url } : { media_type: 'IMAGE', image_url: m.url }),
  ...(m.altText ? { alt_text: m.altText } : {}),
})

/** The head post's containers: text only (with its link), one image or video, or a carousel. */
export function headPlan(content: TargetContent): ContainerPlan {
  const text: Params = content.text !== '' ? { text: content.text } : {}
  const [first] = content.media
  if (!first)
    return {
      children: [],
      head: { media_type: 'TEXT', ...text, ...(content.linkUrl ? { link_attachment: content.linkUrl } : {}) },
    }
  if (content.media.length === 1 && content.type !== 'CAROUSEL')
    return { children: [], head: { ...item(first), ...text } }
  return {
    children: content.media.map((m) => ({ ...item(m), is_carousel_item: 'true' })),
    head: { media_type: 'CAROUSEL', ...text },
  }
}

/** One thread part: a text post replying to the previous post. */
const partPlan = (text: string, replyTo: string): ContainerPlan => ({
  children: [],
  head: { media_type: 'TEXT', text, reply_to_id: replyTo },
})

export function createTextThreadAdapter(_options: AdapterOptions): NetworkAdapter {
  return {
    ...publishSteps(advance),
    verifyCredentials,
    deletePost,
    listPosts: listThreadPosts,
    listComments: listThreadReplies,
    listMentions: listThreadMentions,
    replyToComment: replyToThread,
    hideComment: hideThreadReply,
    credentialRefresh: {
      isDue: (credentials, now) => expiresWithin(credentials, now, TEXTTHREAD_REFRESH_MARGIN_SEC),
      refresh,
    },
  }
}

/** One step: head post, then each thread part in turn; waits (pending) wherever a container is not ready. */
async function advance(input: PublishInput, confirm: boolean): Promise<PublishResult> {
  const graph = accountGraph(HOST, input)
  const userId = credential(input.credentials, 'userId')
  const { progress, save } = progressOf(input)
  const ops = (listed: 'threads' | 'replies', text: string, onSave: (s: ContainerState | undefined) => Promise<void>) =>
    containerOps({
      graph,
      host: HOST,
      now: input.now,
      accountId: userId,
      edge: 'threads',
      status: {
        fields: 'status,error_message',
        codeField: 'status',
        detail: (body) => (typeof body.error_message === 'string' ? body.error_message : null),
      },
      recent: { edge: listed, textField: 'text', text, limit: TEXTTHREAD_RECOVERY_LIST_LIMIT },
      save: onSave,
    })

  if (!progress.headId) {
    const result = await driveContainers(
      () => headPlan(input.content),
      progress.containers as ContainerState | undefined,
      ops('threads', input.content.text, (s) => save({ containers: s })),
      confirm,
    )
    const answer = await headOutcome(result, save, TEXTTHREAD_POLL_SEC)
    if (answer) return answer
  }
  const headId = progress.headId!
  await savePermalink(graph, headId, progress, save)

  const parts = input.content.threadParts
  const partIds = [...(progress.partIds ?? [])]
  for (let i = partIds.length; i < parts.length; i++) {
    const current = progress.partContainer as { index: number; state: ContainerState } | undefined
    const state = current && current.index === i ? current.state : undefined
    const result = await driveContainers(
      () => partPlan(parts[i]!, partIds[i - 1] ?? headId),
      state,
      ops('replies', parts[i]!, (s) => save({ partContainer: s ? { index: i, state: s } : undefined })),
      false,
    )
    if (result.kind === 'pending')
      return { status: 'pending', state: { part: i, ...result.state }, checkAfterSec: TEXTTHREAD_POLL_SEC }
    if (result.kind === 'absent')
      throw new NetworkFailure('transient', `${N} lost thread part ${i + 1}; it will be posted again.`)
    partIds.push(result.mediaId)
    await save({ partIds: [...partIds], partContainer: undefined })
  }
  return { status: 'published', platformPostId: headId, permalink: progress.headPermalink ?? '' }
}

/** Whose the token is; a hosted connect knows no user id yet: the token's own user is the account. */
async function verifyCredentials(input: VerifyInput) {
  const me = await accountGraph(HOST, input).get('me', { fields: 'id,username' })
  const userId = input.credentials.userId === undefined ? String(me.id ?? '') : credential(input.credentials, 'userId')
  if (!userId || String(me.id) !== userId)
    throw new NetworkFailure('rejected', `${N}: this token belongs to user ${me.id}, not ${userId}.`)
  return { username: String(me.username ?? ''), externalId: userId, credentials: { ...input.credentials, userId } }
}

/** Long-lived tokens renew themselves (`th_refresh_token`) while valid and at least 24 h old. */
async function refresh(input: RefreshInput) {
  return refreshLongLivedToken(accountGraph(HOST, input), N, 'th_refresh_token', input)
}

/** DELETE /{media-id}; a post already gone is not an error. */
async function deletePost(input: DeleteInput): Promise<void> {
  try {
    await accountGraph(HOST, input).del(input.platformPostId)
  } catch (e) {
    if (
      e instanceof NetworkFailure &&
      e.kind === 'rejected' &&
      /does not exist|cannot be found|not found/i.test(e.message)
    )
      return
    throw e
  }
}
