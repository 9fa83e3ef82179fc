/**
 * The approval rules of a post (docs/decisions.md, "Approvals"): which step moves a post from which
 * status to which, when a workspace or an account group makes approval required, and the words of
 * each refusal. Pure: the services read the rows and apply what these answer.
 */
import type { ActorRef } from './access'
import { AppError } from './errors'
import type { PostStatus } from './vocabulary'

export const APPROVAL_STATES = ['IN_REVIEW', 'APPROVED', 'CHANGES_REQUESTED'] as const
export type ApprovalState = (typeof APPROVAL_STATES)[number]

/** What approval does once granted: the action a submitter asked for (null: the post stays APPROVED). */
export const APPROVAL_ACTIONS = ['schedule', 'queue', 'now'] as const
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number]

export interface ApprovalIntent {
  action: ApprovalAction
  scheduledAt: string | null
}

/** The last approval round of a post, as `posts.approval` stores it (`version`: the post version submitted). */
export interface StoredApproval {
  state: ApprovalState
  submittedBy: ActorRef
  submittedAt: string
  intent: ApprovalIntent | null
  note: string | null
  decidedBy: ActorRef | null
  decidedAt: string | null
  comment: string | null
  version: number
}

export const APPROVAL_STEPS = ['submit', 'approve', 'request_changes'] as const
export type ApprovalStep = (typeof APPROVAL_STEPS)[number]

/**
 * The transitions, as data. `approve` ends in APPROVED, or where the submitter's intent puts the post
 * (SCHEDULED for schedule and queue, PUBLISHING for now).
 */
export const APPROVAL_TRANSITIONS: Record<ApprovalStep, { from: readonly PostStatus[]; to: PostStatus }> = {
  submit: { from: ['DRAFT', 'CHANGES_REQUESTED'], to: 'IN_REVIEW' },
  approve: { from: ['IN_REVIEW'], to: 'APPROVED' },
  request_changes: { from: ['IN_REVIEW'], to: 'CHANGES_REQUESTED' },
}

/** Where an approved post with this intent goes (the status schedule, queue or publish now gives). */
export function statusAfterApproval(intent: ApprovalIntent | null): PostStatus {
  if (!intent) return 'APPROVED'
  return intent.action === 'now' ? 'PUBLISHING' : 'SCHEDULED'
}

const STEP_WORDS: Record<ApprovalStep, { verb: string; only: string }> = {
  submit: { verb: 'submitted for review', only: 'only a draft or a post with changes requested can be submitted' },
  approve: { verb: 'approved', only: 'only a post in review can be approved' },
  request_changes: { verb: 'sent back for changes', only: 'only a post in review can be sent back for changes' },
}

/** null when `step` may run on a post in `status`, else the sentence of the refusal. */
export function transitionRefusal(step: ApprovalStep, status: PostStatus): string | null {
  if (APPROVAL_TRANSITIONS[step].from.includes(status)) return null
  const words = STEP_WORDS[step]
  if (step === 'submit' && status === 'IN_REVIEW') return 'This post is already in review; wait for the decision.'
  return `This post is ${status}; ${words.only}.`
}

/** Throws 409 `invalid_transition` when `step` cannot run on a post in `status`. */
export function assertTransition(step: ApprovalStep, status: PostStatus): void {
  const refusal = transitionRefusal(step, status)
  if (refusal) {
    throw new AppError('invalid_transition', refusal, {
      details: [{ path: 'status', from: status, to: APPROVAL_TRANSITIONS[step].to }],
    })
  }
}

/** True where the workspace, or any account group of the post's accounts, requires approval. */
export function approvalRequiredFor(
  workspace: { approvalRequired: boolean },
  groupsOfPost: ReadonlyArray<{ approvalRequired: boolean }>,
): boolean {
  return workspace.approvalRequired || groupsOfPost.some((g) => g.approvalRequired)
}

/** Statuses a post may be in once it has gone through gating (approved, then scheduled or published). */
const PAST_APPROVAL: readonly PostStatus[] = ['SCHEDULED', 'PUBLISHING', 'PUBLISHED', 'FAILED']

/**
 * What a post still needs before it may be scheduled, queued or published where approval is
 * required: null when nothing (APPROVED, or already scheduled or out after an approval).
 */
export function missingApprovalStep(status: PostStatus, approval: Pick<StoredApproval, 'state'> | null): string | null {
  if (status === 'APPROVED') return null
  if (PAST_APPROVAL.includes(status) && approval?.state === 'APPROVED') return null
  if (status === 'IN_REVIEW') return 'It is in review: wait for approval.'
  if (status === 'CHANGES_REQUESTED') return 'Changes were requested: edit it and submit it again.'
  return 'Submit it for review first.'
}

/** The sentence of 409 `approval_required` for `what` ("scheduled", "published"...). */
export function approvalRequiredMessage(step: string, what = 'scheduled, queued or published'): string {
  return `This post needs approval before it can be ${what}. ${step}`
}

/** Throws 409 `approval_required` unless the post may go out (only where `required`). */
export function assertApproved(
  post: { required: boolean; status: PostStatus; approval: Pick<StoredApproval, 'state'> | null },
  what?: string,
): void {
  if (!post.required) return
  const step = missingApprovalStep(post.status, post.approval)
  if (step) throw new AppError('approval_required', approvalRequiredMessage(step, what), { details: [{ path: 'status' }] })
}

/** A new post: where approval is required only a draft may be created. */
export function assertCreatableUnderApproval(required: boolean, action: string): void {
  if (!required || action === 'draft') return
  throw new AppError(
    'approval_required',
    approvalRequiredMessage("Create it as a draft (action 'draft') and submit it for review first."),
    { details: [{ path: 'action' }] },
  )
}

/** The approval an edit leaves: kept for reading (who decided, the comment); the status says the rest. */
export const EDIT_SENDS_BACK: readonly PostStatus[] = ['IN_REVIEW', 'APPROVED', 'CHANGES_REQUESTED']

/** The approval round a submit opens. */
export function openApproval(input: {
  by: ActorRef
  now: Date
  intent: ApprovalIntent | null
  note: string | null
  version: number
}): StoredApproval {
  return {
    state: 'IN_REVIEW',
    submittedBy: input.by,
    submittedAt: input.now.toISOString(),
    intent: input.intent,
    note: input.note,
    decidedBy: null,
    decidedAt: null,
    comment: null,
    version: input.version,
  }
}

/** The round closed by a reviewer's decision. */
export function decideApproval(
  round: StoredApproval,
  decision: { state: 'APPROVED' | 'CHANGES_REQUESTED'; by: ActorRef; now: Date; comment: string | null },
): StoredApproval {
  return {
    ...round,
    state: decision.state,
    decidedBy: decision.by,
    decidedAt: decision.now.toISOString(),
    comment: decision.comment,
  }
}

/** 409 `post_changed`: the version a reviewer saw is not the post's any more; `changes` say what happened since. */
export function postChanged(seen: number, current: number, changes: string[]): AppError {
  const since = changes.length > 0 ? ` Since then: ${changes.join('; ')}.` : ''
  return new AppError(
    'post_changed',
    `This post changed since you saw it (version ${seen}, now ${current}); look at it again before deciding.${since}`,
    { details: [{ path: 'version', expected: seen, actual: current }, ...changes.map((c) => ({ path: 'post', message: c }))] },
  )
}
