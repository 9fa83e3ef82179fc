/**
 * The approval steps of a post (docs/decisions.md, "Approvals"): submit (DRAFT or CHANGES_REQUESTED
 * -> IN_REVIEW), approve (IN_REVIEW -> APPROVED, or where the submitted intent puts it) and request
 * changes (IN_REVIEW -> CHANGES_REQUESTED). Each writes its webhook event, activity entry and
 * notifications in the transaction of the change.
 */
import { decideReviewedPost } from '../../db/queries/approval'
import { lockWorkspacePost, updatePostRow } from '../../db/queries/posts'
import type { Tx } from '../../db/types'
import type { Deps } from '../../deps'
import {
  type ApprovalAction,
  type ApprovalIntent,
  assertTransition,
  decideApproval,
  openApproval,
  postChanged,
  type StoredApproval,
  transitionRefusal,
} from '../../domain/approval'
import { AppError, notFound } from '../../domain/errors'
import { assertPostVisible, assertPostWritable } from '../access/visibility'
import type { Caller } from '../caller'
import { dispatchPendingTargets } from '../publishing/dispatch'
import { newOutbox, sendOutbox } from '../webhooks/outbox'
import { checkIntent, checkIntentBoards, makeTargetsDue, timingOfIntent } from './approval-apply'
import { changesSince, recordApprovalStep } from './approval-record'
import { assertServicePost } from './external'
import { getPost } from './read'
import type { PostRecord, PostRow } from './record'

type ApprovalDeps = Pick<
  Deps,
  'db' | 'clock' | 'publishQueue' | 'logger' | 'cipher' | 'networks' | 'webhookQueue' | 'settings'
>

export interface SubmitPostInput {
  action?: ApprovalAction
  scheduledAt?: string | null
  note?: string | null
}

export interface DecidePostInput {
  /** The post version the reviewer saw; a newer one answers 409 `post_changed`. */
  version?: number
  comment?: string | null
}

async function lockPost(tx: Tx, workspaceId: string, postId: string): Promise<PostRow> {
  const row = await lockWorkspacePost(tx, workspaceId, postId)
  if (!row) throw notFound('Post')
  assertServicePost(row)
  return row
}

function intentOf(input: SubmitPostInput): ApprovalIntent | null {
  if (!input.action) {
    if (input.scheduledAt) {
      throw new AppError('invalid_request', "scheduledAt goes with action 'schedule'; give both, or neither.", {
        details: [{ path: 'action' }],
      })
    }
    return null
  }
  if (input.action === 'schedule' && !input.scheduledAt) {
    throw new AppError('schedule_time_required', "action 'schedule' needs scheduledAt.", {
      details: [{ path: 'scheduledAt' }],
    })
  }
  return { action: input.action, scheduledAt: input.action === 'schedule' ? input.scheduledAt! : null }
}

/**
 * Asks for a review: the post becomes IN_REVIEW with a new approval round. With an intent, the post
 * is checked as scheduling it would be (a post that cannot go out is refused now, not at approval).
 */
export async function submitPost(
  deps: ApprovalDeps,
  caller: Caller,
  postId: string,
  input: SubmitPostInput,
): Promise<PostRecord> {
  // A caller limited to some groups: 404 outside them, 403 for a post that also goes elsewhere.
  await assertPostWritable(deps.db, caller, postId)
  const now = deps.clock.now()
  const intent = intentOf(input)
  if (intent) {
    const seen = await getPostRow(deps, caller.workspaceId, postId)
    if (transitionRefusal('submit', seen.status) === null) await checkIntentBoards(deps, seen)
  }
  const outbox = newOutbox()
  await deps.db.transaction(async (tx) => {
    const row = await lockPost(tx, caller.workspaceId, postId)
    assertTransition('submit', row.status)
    if (intent) await checkIntent(tx, row, intent, now)
    const approval = openApproval({ by: caller.actor, now, intent, note: input.note ?? null, version: row.version })
    await updatePostRow(tx, postId, { status: 'IN_REVIEW', approval, updatedAt: now })
    await recordApprovalStep(tx, outbox, { caller, step: 'submit', postId, approval, now })
  })
  await sendOutbox(deps, outbox)
  return getPost(deps.db, caller.workspaceId, postId)
}

async function getPostRow(deps: ApprovalDeps, workspaceId: string, postId: string): Promise<PostRow> {
  return deps.db.transaction((tx) => lockPost(tx, workspaceId, postId))
}

/** The round under decision; a post put IN_REVIEW before rounds were stored gets one from its row. */
function roundOf(row: PostRow, now: Date, by: Caller['actor']): StoredApproval {
  return (
    (row.approval as StoredApproval | null) ?? openApproval({ by, now, intent: null, note: null, version: row.version })
  )
}

/** 409 `post_changed` when the reviewer saw another version, naming what happened since. */
async function assertSeenVersion(tx: Tx, row: PostRow, seen: number | undefined): Promise<void> {
  if (seen === undefined || seen === row.version) return
  throw postChanged(seen, row.version, await changesSince(tx, row, seen))
}

/**
 * Approves a post in review. Without an intent it becomes APPROVED (and may then be scheduled,
 * queued or published as any post); with one, the intent is applied in the same transaction, as
 * schedule, queue or publish now would. Two decisions at once: one wins, the other is 409.
 */
export async function approvePost(
  deps: ApprovalDeps,
  caller: Caller,
  postId: string,
  input: DecidePostInput,
): Promise<PostRecord> {
  await assertPostVisible(deps.db, caller, postId)
  const now = deps.clock.now()
  const outbox = newOutbox()
  const dispatch = await deps.db.transaction(async (tx) => {
    const row = await lockPost(tx, caller.workspaceId, postId)
    assertTransition('approve', row.status)
    await assertSeenVersion(tx, row, input.version)
    const round = roundOf(row, now, caller.actor)
    const approval = decideApproval(round, { state: 'APPROVED', by: caller.actor, now, comment: input.comment ?? null })
    const intent = round.intent
    const timing = intent ? await timingOfIntent(tx, row, intent, now) : null
    const values = timing
      ? {
          status: timing.status,
          scheduledAt: timing.scheduledAt,
          queued: timing.queued,
          queueSlotAt: timing.queueSlotAt,
          version: row.version + 1,
        }
      : { status: 'APPROVED' as const }
    if (!(await decideReviewedPost(tx, row, { ...values, approval, updatedAt: now }))) throw decidedMeanwhile()
    if (timing) await makeTargetsDue(tx, postId, timing.dueAt, now)
    await recordApprovalStep(tx, outbox, { caller, step: 'approve', postId, approval, now })
    return timing !== null
  })
  await sendOutbox(deps, outbox)
  if (dispatch) await dispatchPendingTargets(deps, postId)
  return getPost(deps.db, caller.workspaceId, postId)
}

/** Sends a post in review back to its author with a comment: CHANGES_REQUESTED. */
export async function requestPostChanges(
  deps: ApprovalDeps,
  caller: Caller,
  postId: string,
  input: DecidePostInput & { comment: string },
): Promise<PostRecord> {
  await assertPostVisible(deps.db, caller, postId)
  const now = deps.clock.now()
  const comment = input.comment.trim()
  if (comment.length === 0) {
    throw new AppError('invalid_request', 'Say what should change: comment is required.', {
      details: [{ path: 'comment' }],
    })
  }
  const outbox = newOutbox()
  await deps.db.transaction(async (tx) => {
    const row = await lockPost(tx, caller.workspaceId, postId)
    assertTransition('request_changes', row.status)
    await assertSeenVersion(tx, row, input.version)
    const approval = decideApproval(roundOf(row, now, caller.actor), {
      state: 'CHANGES_REQUESTED',
      by: caller.actor,
      now,
      comment,
    })
    const written = await decideReviewedPost(tx, row, { status: 'CHANGES_REQUESTED', approval, updatedAt: now })
    if (!written) throw decidedMeanwhile()
    await recordApprovalStep(tx, outbox, { caller, step: 'request_changes', postId, approval, now })
  })
  await sendOutbox(deps, outbox)
  return getPost(deps.db, caller.workspaceId, postId)
}

/** The guarded write found the post no longer in review at the version read (a decision made meanwhile). */
function decidedMeanwhile(): AppError {
  return new AppError('invalid_transition', 'This post was decided meanwhile; only a post in review can be decided.', {
    details: [{ path: 'status' }],
  })
}
