/**
 * The composer's side of review and labels: whether the post needs a reviewer's approval and why
 * (the workspace's setting, or a group of a chosen account), the labels to offer, the new label a
 * member named (created through the labels service), and "Submit for review" once the post is saved.
 */
import { can } from '../../domain/access'
import { listGroups } from '../../services/groups/groups'
import { createLabel, listLabels } from '../../services/labels/labels'
import { submitPost } from '../../services/posts/approval'
import { getWorkspaceSettings } from '../../services/workspace/settings'
import { dashboardCaller } from '../caller'
import type { ComposeValues } from './compose-form'
import type { ComposeReview, LabelOption } from './compose-review'
import { workspacePage } from '../env'
import { back, type PageContext, refusalOf } from './shared'
import { fromLocalInput } from './zoned-time'

export interface ComposeExtras {
  labels: LabelOption[]
  canCreateLabel: boolean
  review: ComposeReview
}

/** Labels, and whether (and why) the post needs approval, for the accounts chosen so far. */
export async function composeExtras(
  c: PageContext,
  values: ComposeValues,
  post: { approvalRequired: boolean; status: string; intentAction?: 'schedule' | 'queue' | 'now' | null } | null,
): Promise<ComposeExtras> {
  const { db } = c.var.deps
  const caller = dashboardCaller(c)
  const [labels, groups, settings] = await Promise.all([
    listLabels(db, caller.workspaceId),
    listGroups(db, caller),
    getWorkspaceSettings(db, caller.workspaceId),
  ])
  const strict = groups.filter((g) => g.approvalRequired && g.accountIds.some((id) => values.accountIds.includes(id)))
  const requiredBecause = settings.approvalRequired
    ? 'This workspace publishes a post only once a reviewer approves it; it then goes out as you choose here.'
    : strict.length > 0
      ? `${strict.map((g) => g.name).join(' and ')} ${strict.length === 1 ? 'needs' : 'need'} a reviewer's approval before a post goes out.`
      : post?.approvalRequired
        ? 'A reviewer must approve this post before it goes out.'
        : post?.status === 'CHANGES_REQUESTED'
          ? 'A reviewer asked for changes: submit it again once they are made.'
          : null
  return {
    labels: labels.map((l) => ({ id: l.id, name: l.name, color: l.color })),
    canCreateLabel: can(c.get('member').role, 'write'),
    review: { requiredBecause, action: post?.intentAction ?? 'schedule' },
  }
}

/** The form's values with the label it named created (or found, when one has that name) and ticked. */
export async function withNewLabel(c: PageContext, values: ComposeValues): Promise<ComposeValues> {
  const name = values.newLabel.trim()
  if (!name) return values
  const workspaceId = c.get('member').workspaceId
  const labels = await listLabels(c.var.deps.db, workspaceId)
  const existing = labels.find((l) => l.name.toLowerCase() === name.toLowerCase())
  const label = existing ?? (await createLabel(c.var.deps, dashboardCaller(c), { name }))
  const labelIds = values.labelIds.includes(label.id) ? values.labelIds : [...values.labelIds, label.id]
  return { ...values, labelIds, newLabel: '' }
}

/**
 * The action the composer's "Submit for review" asked for once approved, or the problem with it (to
 * schedule, a time is needed).
 */
export function reviewIntentOf(form: Record<string, unknown>, values: ComposeValues, timeZone: string) {
  const action = form.reviewAction
  if (action === 'queue' || action === 'now') return { intent: { action } as const, problem: null }
  const at = values.scheduledAt ? fromLocalInput(values.scheduledAt, timeZone) : null
  if (at) return { intent: { action: 'schedule', scheduledAt: at } as const, problem: null }
  const problem = { path: 'scheduledAt', message: 'Pick the time to schedule at once approved, or choose the queue.' }
  return { intent: {}, problem }
}

export type ReviewIntent = ReturnType<typeof reviewIntentOf>['intent']

/** Submits the saved post for review and opens its page, saying how it went (a refusal leaves it a draft). */
export async function submitAndOpen(c: PageContext, postId: string, intent: ReviewIntent): Promise<Response> {
  const page = workspacePage(c.get('member'), `/posts/${postId}`)
  try {
    await submitPost(c.var.deps, dashboardCaller(c), postId, intent)
  } catch (err) {
    return back(c, page, { problem: `Saved as a draft, not submitted: ${refusalOf(err).message}` })
  }
  return back(c, page, { notice: 'Submitted for review. Reviewers are told.' })
}
