/**
 * Where approval is required (the workspace, or a group of any of the post's accounts), what goes
 * out must have been approved: create with an action other than draft, an edit with an action,
 * schedule, queue and publish now refuse otherwise (409 `approval_required`, naming the step missing).
 */
import { type ApprovalScope, selectApprovalScope } from '../../db/queries/approval'
import type { DbOrTx } from '../../db/types'
import {
  approvalRequiredFor,
  assertApproved,
  assertCreatableUnderApproval,
  type StoredApproval,
} from '../../domain/approval'
import type { PostStatus } from '../../domain/vocabulary'

export type { ApprovalScope }
export { selectApprovalScope as approvalScopeOf }

/** Whether a post to these accounts needs approval, by the scope of its workspace. */
export function requiresApproval(scope: ApprovalScope, accountIds: readonly string[]): boolean {
  const held = new Set(scope.accountIds)
  return approvalRequiredFor(
    { approvalRequired: scope.workspace },
    accountIds.map((id) => ({ approvalRequired: held.has(id) })),
  )
}

export async function approvalRequiredOf(db: DbOrTx, workspaceId: string, accountIds: readonly string[]) {
  return requiresApproval(await selectApprovalScope(db, workspaceId), accountIds)
}

/** A create: where approval is required, only a draft. */
export async function assertCreateGate(
  db: DbOrTx,
  workspaceId: string,
  accountIds: readonly string[],
  action: string,
): Promise<void> {
  if (action === 'draft') return
  assertCreatableUnderApproval(await approvalRequiredOf(db, workspaceId, accountIds), action)
}

/**
 * A post about to be scheduled, queued or published. `edited`: the same call edits the post, which
 * undoes any approval, so where approval is required it is refused as a draft would be.
 */
export async function assertGoOutGate(
  db: DbOrTx,
  post: { workspaceId: string; status: PostStatus; approval: StoredApproval | null },
  accountIds: readonly string[],
  options: { edited?: boolean; what?: string } = {},
): Promise<void> {
  const required = await approvalRequiredOf(db, post.workspaceId, accountIds)
  const status = options.edited ? 'DRAFT' : post.status
  assertApproved({ required, status, approval: options.edited ? null : post.approval }, options.what)
}
