/**
 * The photo network (Instagram Graph API, content publishing through containers), on both of its
 * hosts: the page network's Graph host for accounts connected through its login
 * (`SOCIALGRAPH_LOGIN`) and the photo network's own Graph host (`DIRECT_LOGIN`). The network pulls
 * our media from its public URL while building a container; we poll the container through
 * `pending`, publish it once FINISHED, save the post id at once, then read the permalink and post
 * the first comment. Before publishing again, the container's PUBLISHED status says the post
 * exists already (the publish answer was lost): the post is then found among the account's recent
 * posts, never made twice. The network has no documented delete. Its audio search for reels, on the
 * Facebook-login host only, is in audio.ts.
 */
import type {
  Insights,
  InsightsInput,
  NetworkAdapter,
  PendingInput,
  PublishInput,
  PublishProgress,
  PublishResult,
  RefreshInput,
  VerifiedAccount,
  VerifyInput,
} from '../../adapter'
import { NetworkFailure, asFailedResult, credential, expiresWithin } from '../../http'
import { metric } from '../../metrics'
import {
  driveContainers,
  findListed,
  graphClient,
  refreshLongLivedToken,
  type ContainerCode,
  type ContainerState,
  type GraphClient,
} from '../meta/containers'
import type { AdapterOptions } from '../options'
import { listPhotoAudio } from './audio'
import {
  deletePhotoComment,
  hidePhotoComment,
  listPhotoComments,
  listPhotoMentions,
  listPhotoPosts,
  replyToPhotoComment,
} from './inbox'
import {
  PHOTO_COMMENT_FORMATS,
  PHOTO_GRAPH_VERSION,
  PHOTO_MEDIA_METRICS,
  PHOTO_NETWORK,
  PHOTO_POLL_SEC,
  PHOTO_QUOTA_WAIT_SEC,
  PHOTO_RECOVERY_LIST_LIMIT,
  PHOTO_REFRESH_MARGIN_SEC,
  containerErrorWords,
  photoPlan,
} from './plan'

const N = PHOTO_NETWORK

type Base = { fetch: typeof fetch; baseUrl: string; credentials: Record<string, unknown>; now: Date }

const client = (input: Base, now = input.now): GraphClient =>
  graphClient({
    network: N,
    fetch: input.fetch,
    baseUrl: input.baseUrl,
    version: PHOTO_GRAPH_VERSION,
    accessToken: credential(input.credentials, 'accessToken'),
    now,
  })

export function createPhotoAdapter(_options: AdapterOptions): NetworkAdapter {
  async function run(input: PublishInput | PendingInput, confirm: boolean): Promise<PublishResult> {
    try {
      return await advance(input, confirm)
    } catch (e) {
      return asFailedResult(e)
    }
  }
  return {
    publish: (input) => run(input, false),
    checkStatus: (input) => run(input, input.unconfirmed),
    fetchInsights,
    verifyCredentials,
    listIdentities,
    listAudio: listPhotoAudio,
    listPosts: listPhotoPosts,
    listComments: listPhotoComments,
    listMentions: listPhotoMentions,
    replyToComment: replyToPhotoComment,
    hideComment: hidePhotoComment,
    deleteComment: deletePhotoComment,
    credentialRefresh: {
      isDue: (credentials, now) => expiresWithin(credentials, now, PHOTO_REFRESH_MARGIN_SEC),
      refresh,
    },
  }
}

/** One step of the publish: containers, then the post, then its permalink and first comment. */
async function advance(input: PublishInput, confirm: boolean): Promise<PublishResult> {
  const graph = client(input, input.now)
  const igUserId = credential(input.credentials, 'igUserId')
  const progress: PublishProgress = { ...input.progress }
  const save = async (step: Partial<PublishProgress>) => {
    Object.assign(progress, step)
    await input.saveProgress({ ...progress })
  }
  if (!progress.headId) {
    if (!confirm && !progress.containers) await checkQuota(graph, igUserId)
    const isStory = input.content.type === 'STORY'
    const result = await driveContainers(
      () => photoPlan(input.content, input.connection),
      progress.containers as ContainerState | undefined,
      {
        network: N,
        now: input.now,
        create: async (params) => String((await graph.post(`${igUserId}/media`, params)).id),
        status: async (id) => {
          const body = await graph.get(id, { fields: 'status_code,status' })
          return {
            code: String(body.status_code ?? 'IN_PROGRESS') as ContainerCode,
            detail: body.status_code === 'ERROR' ? containerErrorWords(body.status) : null,
          }
        },
        publish: async (id) => String((await graph.post(`${igUserId}/media_publish`, { creation_id: id })).id),
        findPublished: async (since) => {
          // Stories are not in the media list; they have their own edge (live for 24 h).
          const listed = await graph.get(`${igUserId}/${isStory ? 'stories' : 'media'}`, {
            fields: 'id,caption,timestamp',
            limit: String(PHOTO_RECOVERY_LIST_LIMIT),
          })
          return findListed(
            Array.isArray(listed.data) ? listed.data : [],
            'caption',
            isStory ? null : input.content.text,
            since,
          )
        },
        save: (state) => save({ containers: state }),
      },
      confirm,
    )
    if (result.kind === 'absent') return { status: 'absent' }
    if (result.kind === 'pending') return { status: 'pending', state: result.state, checkAfterSec: PHOTO_POLL_SEC }
    await save({ headId: result.mediaId, containers: undefined })
  }
  const headId = progress.headId!
  if (!progress.headPermalink) {
    const body = await graph.get(headId, { fields: 'permalink' })
    if (typeof body.permalink === 'string') await save({ headPermalink: body.permalink })
  }
  const warnings = await firstComment(input, graph, headId, progress, save)
  return {
    status: 'published',
    platformPostId: headId,
    permalink: progress.headPermalink ?? '',
    ...(warnings.length ? { warnings } : {}),
  }
}

/**
 * Before building anything: the account's rolling 24 h quota (`content_publishing_limit`). Used up
 * means a wait, not a refusal. The check is advisory: a refused read does not stop the publish
 * (media_publish enforces the cap itself, code 9 / subcode 2207042).
 */
async function checkQuota(graph: GraphClient, igUserId: string): Promise<void> {
  let body: any
  try {
    body = await graph.get(`${igUserId}/content_publishing_limit`, { fields: 'quota_usage,config' })
  } catch (e) {
    if (e instanceof NetworkFailure && e.kind === 'rejected') return
    throw e
  }
  const row = Array.isArray(body.data) ? body.data[0] : undefined
  const used = Number(row?.quota_usage)
  const total = Number(row?.config?.quota_total)
  if (Number.isFinite(used) && Number.isFinite(total) && total > 0 && used >= total) {
    throw new NetworkFailure(
      'rate_limited',
      `${N}: the account has published ${used} of its ${total} posts allowed in 24 hours; waiting for room.`,
      PHOTO_QUOTA_WAIT_SEC,
    )
  }
}

/** The first comment, once: a refusal is a warning on a published post, never a failure. */
async function firstComment(
  input: PublishInput,
  graph: GraphClient,
  headId: string,
  progress: PublishProgress,
  save: (s: Partial<PublishProgress>) => Promise<void>,
): Promise<string[]> {
  const message = input.content.firstComment ?? ''
  if (message.trim() === '' || progress.firstComment === 'posted') return []
  if (progress.firstComment === 'refused') return [`${N} refused the first comment; the post is published without it.`]
  if (progress.firstComment === 'skipped') return []
  if (!PHOTO_COMMENT_FORMATS.includes(input.content.type)) {
    await save({ firstComment: 'skipped' })
    return []
  }
  try {
    await graph.post(`${headId}/comments`, { message })
    await save({ firstComment: 'posted' })
    return []
  } catch (e) {
    // The post is out: whatever stopped its comment (the network, or a bug of ours) must not turn
    // a published post into a failed one, so it ends as a warning, and a retry never posts twice.
    await save({ firstComment: 'refused' })
    const why = e instanceof NetworkFailure ? e.message : 'an unexpected error on our side'
    return [`The first comment was not posted (${why}); the post is published without it.`]
  }
}

async function verifyCredentials(input: VerifyInput) {
  const graph = client(input, input.now)
  const igUserId = credential(input.credentials, 'igUserId')
  if (input.connection === 'DIRECT_LOGIN') {
    const me = await graph.get('me', { fields: 'user_id,username' })
    if (String(me.user_id) !== igUserId)
      throw new NetworkFailure('rejected', `${N}: this token belongs to account ${me.user_id}, not ${igUserId}.`)
    return { username: String(me.username ?? ''), externalId: igUserId, credentials: input.credentials }
  }
  const user = await graph.get(igUserId, { fields: 'username,id' })
  if (String(user.id) !== igUserId)
    throw new NetworkFailure('rejected', `${N}: the token does not reach account ${igUserId}.`)
  return { username: String(user.username ?? ''), externalId: igUserId, credentials: input.credentials }
}

/**
 * A Facebook Login's professional accounts (hosted connect): each Page's `instagram_business_account`
 * from `/me/accounts`, all sharing the member's long-lived user token. An Instagram Login is one account.
 */
async function listIdentities(input: VerifyInput): Promise<VerifiedAccount[]> {
  if (input.connection === 'DIRECT_LOGIN') return [await verifyCredentials(input)]
  const graph = client(input, input.now)
  const body = await graph.get('me/accounts', {
    fields: 'id,name,instagram_business_account{id,username}',
    limit: '100',
  })
  const accounts: VerifiedAccount[] = []
  for (const page of (body.data ?? []) as Array<{
    instagram_business_account?: { id?: unknown; username?: unknown }
  }>) {
    const ig = page.instagram_business_account
    if (typeof ig?.id !== 'string' || !ig.id) continue
    accounts.push({
      username: typeof ig.username === 'string' && ig.username ? ig.username : ig.id,
      externalId: ig.id,
      credentials: { ...input.credentials, igUserId: ig.id },
    })
  }
  return accounts
}

/**
 * Instagram-login long-lived tokens renew themselves (`ig_refresh_token`), once at least 24 h old
 * and while still valid. Facebook-login tokens have no such endpoint: the account reconnects.
 */
async function refresh(input: RefreshInput) {
  if (input.connection !== 'DIRECT_LOGIN') {
    return {
      status: 'failed' as const,
      kind: 'auth_expired' as const,
      message: `${N}: this login's token cannot be renewed here; reconnect the account.`,
    }
  }
  return refreshLongLivedToken(client(input, input.now), N, 'ig_refresh_token', input)
}

/** Followers, and per post likes, comments, shares, saves, views and reach (one insights call); a post the network will not report on is null. */
async function fetchInsights(input: InsightsInput): Promise<Insights> {
  const graph = client(input, input.now)
  const user = await graph.get(credential(input.credentials, 'igUserId'), { fields: 'followers_count' })
  const posts: Insights['posts'] = []
  for (const post of input.posts) {
    const row: Insights['posts'][number] = {
      targetId: post.targetId,
      likes: null,
      comments: null,
      shares: null,
      views: null,
      saves: null,
      reach: null,
    }
    try {
      const body = await graph.get(`${post.platformPostId}/insights`, {
        metric: Object.keys(PHOTO_MEDIA_METRICS).join(','),
      })
      for (const entry of Array.isArray(body.data) ? body.data : []) {
        const field = PHOTO_MEDIA_METRICS[entry.name as keyof typeof PHOTO_MEDIA_METRICS]
        const value = metric(entry.total_value?.value ?? entry.values?.[0]?.value)
        if (field && value !== null) row[field] = value
      }
    } catch (e) {
      // A deleted post, an expired story: nothing to report. Token and rate problems stop the pass.
      if (!(e instanceof NetworkFailure) || e.kind !== 'rejected') throw e
    }
    posts.push(row)
  }
  return { followers: metric(user.followers_count), posts }
}
