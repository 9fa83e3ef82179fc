/**
 * `DELETE /v1/posts/{id}?fromNetworks=true` (docs/decisions.md, "Deleting from the networks"):
 * take each target's posts down at its network, then drop from our record what is done with.
 *
 * 1. One transaction locks the post, plans each target (domain/publishing/network-removal.ts) and
 *    stops the targets still waiting to publish, so no delivery posts them meanwhile.
 * 2. The networks are called outside any transaction, target by target in parallel.
 * 3. One transaction writes the result: the targets with nothing left to do go, a target that
 *    failed half-way notes the ids already removed, and the post goes only when no target is left;
 *    otherwise its status is recomputed from the targets it keeps. Deleting again redoes only what
 *    is left.
 */
import { assertServicePost } from './external'
import {
  deleteWorkspacePost,
  lockWorkspacePost,
  selectPostTargets,
  type PostRow,
  type TargetRow,
} from '../../db/queries/posts'
import { listTargetOutcomes, noteRemovedIds, removeSettledTargets, stopPendingTargets } from '../../db/queries/targets'
import type { Tx } from '../../db/types'
import { notFound } from '../../domain/errors'
import {
  isFinalRemoval,
  planRemoval,
  removalMessage,
  REMOVED_KEY,
  type NetworkRemovalOutcome,
  type RemovalPlan,
} from '../../domain/publishing/network-removal'
import type { PlatformId, TargetError } from '../../domain/vocabulary'
import { refreshPostStatus } from '../publishing/aggregate'
import { newOutbox, type Outbox, sendOutbox } from '../webhooks/outbox'
import { recordPostDeleted } from '../webhooks/publish-events'
import { recordPostAction } from '../activity/posts'
import { callerOfScope, type WorkspaceScope } from '../activity/scope'
import type { Caller } from '../caller'
import { getPost } from './read'
import { removeTargetPosts, type RemovalCall, type RemovalDeps } from './network-removal-calls'

/** What happened to one target. */
export interface TargetRemoval {
  targetId: string
  accountId: string
  platform: PlatformId
  outcome: NetworkRemovalOutcome
  message: string
  permalink: string | null
  /** Network ids removed, by this call or an earlier one. */
  deletedIds: string[]
  /** Network ids still published there as far as we know. */
  remainingIds: string[]
  /** The network's failure, for `failed` only. */
  error: TargetError | null
}

export interface PostNetworkDeletion {
  id: string
  /** True when our record of the post is gone; false when it is kept for what is left to do. */
  deleted: boolean
  targets: TargetRemoval[]
}

interface Planned {
  row: TargetRow
  plan: RemovalPlan
}

const STOPPED: TargetError = {
  code: 'rejected',
  message: 'Stopped: this post is being deleted from its networks; delete it again to finish.',
  retryable: false,
}

export async function deletePostFromNetworks(
  deps: RemovalDeps,
  scope: WorkspaceScope,
  postId: string,
): Promise<PostNetworkDeletion> {
  const outbox = newOutbox()
  const answer = await removeFromNetworks(deps, callerOfScope(scope), postId, outbox)
  await sendOutbox(deps, outbox)
  return answer
}

async function removeFromNetworks(
  deps: RemovalDeps,
  caller: Caller,
  postId: string,
  outbox: Outbox,
): Promise<PostNetworkDeletion> {
  const { workspaceId } = caller
  const first = await deps.db.transaction(async (tx) => {
    const post = await lockWorkspacePost(tx, workspaceId, postId)
    if (!post) throw notFound('Post')
    assertServicePost(post)
    const planned = (await selectPostTargets(tx, post.id))
      .sort((a, b) => a.position - b.position)
      .map((row) => ({ row, plan: planRemoval(row) }))
    if (!planned.some((p) => p.plan.action === 'delete')) {
      const answer = await finish(deps, tx, outbox, post, planned, new Map(), false)
      await recordNetworkDeletion(tx, caller, answer, deps.clock.now())
      return { planned, answer }
    }
    // A target waiting to publish (not one whose network is still at work) publishes nothing more.
    const waiting = planned.filter((p) => p.row.status === 'PENDING' && !isInProgress(p.plan))
    await stopPendingTargets(
      tx,
      waiting.map((p) => p.row.id),
      STOPPED,
      deps.clock.now(),
    )
    return { planned, answer: null }
  })
  if (first.answer) return first.answer
  const calls = new Map<string, RemovalCall>(
    await Promise.all(
      first.planned
        .flatMap(({ row, plan }) => (plan.action === 'delete' ? [{ row, ids: plan.toDelete }] : []))
        .map(async ({ row, ids }) => [row.id, await removeTargetPosts(deps, row, ids)] as const),
    ),
  )
  return deps.db.transaction(async (tx) => {
    const post = await lockWorkspacePost(tx, workspaceId, postId)
    // Deleted meanwhile (by a plain delete): the answer is what the networks said.
    if (!post)
      return { id: postId, deleted: true, targets: first.planned.map((p) => answerFor(p, calls.get(p.row.id))) }
    const answer = await finish(deps, tx, outbox, post, first.planned, calls, true)
    await recordNetworkDeletion(tx, caller, answer, deps.clock.now())
    return answer
  })
}

/** `post.deleted_from_networks`: what each target's network did, and whether our record went too. */
function recordNetworkDeletion(tx: Tx, caller: Caller, answer: PostNetworkDeletion, now: Date) {
  const removed = answer.targets.filter((t) => t.outcome === 'deleted').length
  const tail = answer.deleted ? '; the post is deleted' : '; the post is kept for what is left'
  return recordPostAction(tx, caller, {
    postId: answer.id,
    action: 'post.deleted_from_networks',
    words: `deleted post ${answer.id} from its networks (${removed} of ${answer.targets.length} targets removed)${tail}`,
    details: {
      deleted: answer.deleted,
      outcomes: answer.targets.map((t) => ({ targetId: t.targetId, outcome: t.outcome })),
    },
    now,
  })
}

const isInProgress = (plan: RemovalPlan) => plan.action === 'none' && plan.outcome === 'in_progress'

/** The status a target has after the first step: one that was waiting to publish was stopped. */
const statusAfterStop = ({ row, plan }: Planned, stopped: boolean) =>
  stopped && row.status === 'PENDING' && !isInProgress(plan) ? 'FAILED' : row.status

function changedMeanwhile(a: TargetRemoval): TargetRemoval {
  return {
    ...a,
    outcome: 'in_progress',
    message: `Not touched: it changed while the networks were being called (a retry or a publish by hand). Delete again.`,
  }
}

async function finish(
  deps: RemovalDeps,
  tx: Tx,
  outbox: Outbox,
  post: PostRow,
  planned: Planned[],
  calls: Map<string, RemovalCall>,
  stopped: boolean,
): Promise<PostNetworkDeletion> {
  // The post as it was, targets included: `post.deleted` carries it if our record goes (webhooks).
  const before = await getPost(tx, post.workspaceId, post.id)
  let answers = planned.map((p) => answerFor(p, calls.get(p.row.id)))
  const finished = planned.filter((_, i) => isFinalRemoval(answers[i]!.outcome))
  const removed = new Set(
    await removeSettledTargets(
      tx,
      finished.map((p) => ({ id: p.row.id, status: statusAfterStop(p, stopped) })),
    ),
  )
  // A target that changed meanwhile (retried and published by hand) is kept, and said so.
  answers = answers.map((a) => (isFinalRemoval(a.outcome) && !removed.has(a.targetId) ? changedMeanwhile(a) : a))
  for (const a of answers) {
    if (a.outcome === 'failed' && a.deletedIds.length > 0)
      await noteRemovedIds(tx, a.targetId, REMOVED_KEY, a.deletedIds)
  }
  let deleted = false
  if ((await listTargetOutcomes(tx, post.id)).length === 0) {
    deleted = await deleteWorkspacePost(tx, post.workspaceId, post.id)
    if (deleted) await recordPostDeleted(tx, outbox, post.workspaceId, before, deps.clock.now())
  } else {
    await refreshPostStatus(tx, post.id, deps.clock.now(), post)
  }
  const counts: Record<string, number> = {}
  for (const a of answers) counts[a.outcome] = (counts[a.outcome] ?? 0) + 1
  deps.logger.info('post_network_delete', {
    postId: post.id,
    workspaceId: post.workspaceId,
    recordDeleted: deleted,
    ...counts,
  })
  return { id: post.id, deleted, targets: answers }
}

function answerFor({ row, plan }: Planned, call: RemovalCall | undefined): TargetRemoval {
  const permalink =
    row.permalink ?? (typeof row.progress?.headPermalink === 'string' ? row.progress.headPermalink : null)
  const deletedIds = plan.action === 'done' ? plan.ids : [...plan.removed, ...(call?.removed ?? [])]
  const remainingIds = plan.ids.filter((id) => !deletedIds.includes(id))
  let outcome: NetworkRemovalOutcome
  if (plan.action === 'none') outcome = plan.outcome
  else if (plan.action === 'done') outcome = 'deleted'
  else if (!call || call.unsupported) outcome = 'not_supported'
  else outcome = call.failure ? 'failed' : 'deleted'
  const failure = outcome === 'failed' ? call?.failure : null
  return {
    targetId: row.id,
    accountId: row.accountId,
    platform: row.platform,
    outcome,
    message: removalMessage(outcome, row.platform, {
      ids: plan.ids.length,
      permalink: outcome === 'deleted' ? null : permalink,
      ...(failure ? { detail: failure.message, retryable: failure.retryable } : {}),
    }),
    permalink: outcome === 'deleted' ? null : permalink,
    deletedIds,
    remainingIds: outcome === 'deleted' ? [] : remainingIds,
    error: failure ? { code: failure.kind, message: failure.message, retryable: failure.retryable } : null,
  }
}
