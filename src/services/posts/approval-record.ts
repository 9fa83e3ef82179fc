/**
 * What each approval step leaves behind, in the transaction of the step: the webhook event
 * (`post.submitted`, `post.approved`, `post.changes_requested`), the activity entry, and the
 * notifications (review requested: the reviewers and managers who can see the post; a decision:
 * the submitter).
 */
import { selectActorUserId, selectPostActivitySince } from '../../db/queries/approval'
import type { Tx } from '../../db/types'
import type { ApprovalStep, StoredApproval } from '../../domain/approval'
import { recordActivity } from '../activity/record'
import type { Caller } from '../caller'
import { notify } from '../notifications/notify'
import { type Outbox, recordEvent } from '../webhooks/outbox'
import { getPost } from './read'
import type { PostRow } from './record'

const STEP_RECORDS = {
  submit: { event: 'post.submitted', kind: 'review_requested', verb: 'submitted the post for review' },
  approve: { event: 'post.approved', kind: 'post_approved', verb: 'approved the post' },
  request_changes: {
    event: 'post.changes_requested',
    kind: 'changes_requested',
    verb: 'requested changes to the post',
  },
} as const satisfies Record<ApprovalStep, { event: string; kind: string; verb: string }>

const snippet = (text: string | null | undefined) => {
  const t = (text ?? '').replace(/\s+/g, ' ').trim()
  return t.length === 0 ? 'a post without caption' : `"${t.length > 60 ? `${t.slice(0, 59)}…` : t}"`
}

export async function recordApprovalStep(
  tx: Tx,
  outbox: Outbox,
  input: { caller: Caller; step: ApprovalStep; postId: string; approval: StoredApproval; now: Date },
): Promise<void> {
  const { caller, step, postId, approval, now } = input
  const words = STEP_RECORDS[step]
  const post = await getPost(tx, caller.workspaceId, postId)
  await recordEvent(tx, outbox, { workspaceId: caller.workspaceId, type: words.event, data: { ...post }, now })
  const said = step === 'submit' ? approval.note : approval.comment
  await recordActivity(tx, {
    workspaceId: caller.workspaceId,
    actor: caller.actor,
    ip: caller.ip,
    action: words.event,
    subject: { type: 'post', id: postId },
    summary: `${caller.actor.name} ${words.verb}${said ? `: ${said}` : '.'}`,
    details: { status: post.status, version: post.version, ...(approval.intent ? { intent: approval.intent } : {}) },
    now,
  })
  const title = `${caller.actor.name} ${words.verb}`
  const body = `${snippet(post.caption)}${said ? ` — ${said}` : ''}`
  const common = {
    workspaceId: caller.workspaceId,
    kind: words.kind,
    title,
    body,
    link: `/app/w/${caller.workspaceId}/posts/${postId}`,
    subject: { type: 'post', id: postId },
    exceptUserId: caller.userId ?? undefined,
    now,
  }
  if (step === 'submit') {
    await notify(tx, { ...common, recipients: { roles: ['owner', 'admin', 'reviewer'], groupScopeOfPostId: postId } })
    return
  }
  const submitter = await selectActorUserId(tx, approval.submittedBy)
  if (submitter) await notify(tx, { ...common, recipients: { userIds: [submitter] } })
}

/** What happened to the post since it was at version `seen`, in words (its activity entries), for 409 `post_changed`. */
export async function changesSince(tx: Tx, row: PostRow, seen: number): Promise<string[]> {
  const entries = await selectPostActivitySince(tx, row.workspaceId, row.id, seen)
  return entries.map((e) => `${e.summary} (${e.at.toISOString()})`)
}
