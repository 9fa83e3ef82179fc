/**
 * Publishing one target on the photo network: the account's 24 h quota checked first, the post's
 * containers driven (meta/containers.ts, with the steps the text-thread network shares in
 * meta/container-publish.ts), the post id saved at once, then its permalink read and the first
 * comment posted, once.
 */
import type { PublishInput, PublishProgress, PublishResult } from '../../adapter'
import { NetworkFailure, credential } from '../../http'
import {
  accountGraph,
  containerOps,
  headOutcome,
  progressOf,
  savePermalink,
  type SaveStep,
} from '../meta/container-publish'
import { driveContainers, type ContainerState, type GraphClient } from '../meta/containers'
import {
  PHOTO_COMMENT_FORMATS,
  PHOTO_HOST,
  PHOTO_NETWORK,
  PHOTO_POLL_SEC,
  PHOTO_QUOTA_WAIT_SEC,
  PHOTO_RECOVERY_LIST_LIMIT,
  containerErrorWords,
  photoPlan,
} from './plan'

const N = PHOTO_NETWORK

/** One step of the publish: containers, then the post, then its permalink and first comment. */
export async function advancePhoto(input: PublishInput, confirm: boolean): Promise<PublishResult> {
  const graph = accountGraph(PHOTO_HOST, input)
  const igUserId = credential(input.credentials, 'igUserId')
  const { progress, save } = progressOf(input)
  if (!progress.headId) {
    if (!confirm && !progress.containers) await checkQuota(graph, igUserId)
    const isStory = input.content.type === 'STORY'
    const ops = containerOps({
      graph,
      host: PHOTO_HOST,
      now: input.now,
      accountId: igUserId,
      edge: 'media',
      status: {
        fields: 'status_code,status',
        codeField: 'status_code',
        detail: (body) => (body.status_code === 'ERROR' ? containerErrorWords(body.status) : null),
      },
      // Stories are not in the media list; they have their own edge (live for 24 h).
      recent: {
        edge: isStory ? 'stories' : 'media',
        textField: 'caption',
        text: isStory ? null : input.content.text,
        limit: PHOTO_RECOVERY_LIST_LIMIT,
      },
      save: (state) => save({ containers: state }),
    })
    const result = await driveContainers(
      () => photoPlan(input.content, input.connection),
      progress.containers as ContainerState | undefined,
      ops,
      confirm,
    )
    const answer = await headOutcome(result, save, PHOTO_POLL_SEC)
    if (answer) return answer
  }
  const headId = progress.headId!
  await savePermalink(graph, headId, progress, save)
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
  save: SaveStep,
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
