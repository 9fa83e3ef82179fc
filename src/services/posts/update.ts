/**
 * Editing a post (PUT /posts/{id}, the dashboard's edit) and rescheduling it (POST /posts/{id}/schedule,
 * the calendar): what may still change, the edit and its action in one transaction, the approval and
 * targets it leaves.
 */
import {
  deleteTargetsOutside,
  hasTargetGoneOut,
  insertTargets,
  lockWorkspacePost,
  selectPostTargets,
  updatePostRow,
  updatePostTarget,
} from '../../db/queries/posts'
import type { Tx } from '../../db/types'
import type { StoredApproval } from '../../domain/approval'
import { AppError, notFound } from '../../domain/errors'
import { mergeContent } from '../../domain/post-content'
import { notApplicableWarnings, type PostWarning, type ValidationAccount } from '../../domain/post-validation'
import { assertBoardsOfAccounts } from '../accounts/boards'
import { assertDestinationsOfAccounts } from '../accounts/destinations'
import { changedFields, recordPostEdited } from '../activity/posts'
import { callerOfScope, type WorkspaceScope } from '../activity/scope'
import { setPostLabels } from '../labels/labels'
import { notifyExpiringTokens } from '../notifications/triggers'
import { dispatchPendingTargets } from '../publishing/dispatch'
import { lockWorkspace } from '../workspace/lock'
import { assertGoOutGate } from './approval-gate'
import { assertValidContent, contentOf } from './content'
import { assertServicePost } from './external'
import { loadPostAccounts, loadPostMedia } from './load'
import { getPost } from './read'
import { newTargetRows, pendingTargetFields } from './targets'
import { timingColumns, timingFor } from './timing'
import { tokenExpiryWarnings } from './token-warnings'
import type { PostWriteDeps, UpdatePostInput, WrittenPost } from './types'

const parseTime = (iso: string | null | undefined) => (iso ? new Date(iso) : null)

/** The post, locked for the edit; 404 when the workspace has none, refused when it is not the service's. */
async function lockPost(tx: Tx, workspaceId: string, postId: string) {
  const row = await lockWorkspacePost(tx, workspaceId, postId)
  if (!row) throw notFound('Post')
  assertServicePost(row)
  return row
}

/**
 * A post can change until anything of it has gone out: PUBLISHED, PUBLISHING, or a target that
 * is publishing, published, or got anything onto its network (a head post whose thread then
 * failed: editing would publish the head again).
 */
async function assertEditable(tx: Tx, post: { id: string; status: string }): Promise<void> {
  const outside = await hasTargetGoneOut(tx, post.id)
  if (post.status === 'PUBLISHED' || post.status === 'PUBLISHING' || outside) {
    throw new AppError(
      'post_not_editable',
      post.status === 'PUBLISHING'
        ? 'The post is being published and cannot be changed now.'
        : 'The post has been published (in part or in full) and cannot be changed.',
    )
  }
}

/**
 * Edits a post. Without `action` it goes back to DRAFT (and gives up its queue slot; a post in review,
 * approved or with changes requested too); with one, the edit comes first and then the action, which
 * where approval is required needs an approved post and no edit of its content (approval-gate.ts). Every edit bumps the version, so deliveries
 * scheduled for the old version do nothing. Answers the post with `bodyWarnings` and the fields of
 * the edited post that none of its networks uses.
 */
export async function updatePost(
  deps: PostWriteDeps,
  scope: WorkspaceScope,
  postId: string,
  input: UpdatePostInput,
  bodyWarnings: PostWarning[] = [],
): Promise<WrittenPost> {
  const caller = callerOfScope(scope)
  const { workspaceId } = caller
  const now = deps.clock.now()
  await assertEditedBoards(deps, workspaceId, postId, input)
  const warnings = await deps.db.transaction(async (tx) => {
    const ws = await lockWorkspace(tx, workspaceId)
    const row = await lockPost(tx, workspaceId, postId)
    await assertEditable(tx, row)
    const current = await selectPostTargets(tx, postId)
    const accountIds = input.accountIds ?? [...current].sort((a, b) => a.position - b.position).map((t) => t.accountId)
    const goesOut = input.action !== undefined && input.action !== 'draft'
    if (goesOut) await assertGoOutGate(tx, row, accountIds, { edited: isContentEdit(input) })
    const accounts = await loadPostAccounts(tx, workspaceId, accountIds)
    const content = mergeContent(contentOf(row), input)
    const media = await loadPostMedia(tx, workspaceId, content.mediaIds)
    const scheduledAt = input.scheduledAt !== undefined ? parseTime(input.scheduledAt) : row.scheduledAt
    assertValidContent(
      content,
      accounts,
      media,
      input.action && input.action !== 'draft' ? 'publish' : 'draft',
      scheduledAt,
    )
    // Release the post's own slot first, so re-queueing may take the same occurrence again.
    await updatePostRow(tx, postId, { queueSlotAt: null })
    const timing = await timingFor(tx, { action: input.action, scheduledAt, workspaceId, timezone: ws.timezone, now })
    await updatePostRow(tx, postId, {
      ...content,
      ...timingColumns(timing),
      ...approvalAfterEdit(row, input, goesOut),
      version: row.version + 1,
      updatedAt: now,
    })
    await setPostLabels(tx, workspaceId, postId, input.labelIds)
    const keep = accounts.map((a) => a.id)
    await deleteTargetsOutside(tx, postId, keep)
    const existing = new Set(current.map((t) => t.accountId))
    const added = accounts.filter((a) => !existing.has(a.id))
    if (added.length > 0) await insertTargets(tx, newTargetRows(postId, workspaceId, added, timing.dueAt, now))
    for (const [position, account] of accounts.entries()) {
      await updatePostTarget(tx, postId, account.id, { position, ...pendingTargetFields(timing.dueAt, now) })
    }
    const expiring = await tokenExpiryWarnings({ db: tx, cipher: deps.cipher }, workspaceId, accounts, timing.dueAt)
    await notifyExpiringTokens(tx, { workspaceId, postId, warnings: expiring, now })
    await recordPostEdited(tx, caller, { postId, action: input.action, timing, now, changed: changedFields(input) })
    return [...notApplicableWarnings(content, accounts), ...expiring]
  })
  await dispatchPendingTargets(deps, postId)
  return { ...(await getPost(deps.db, workspaceId, postId)), warnings: [...bodyWarnings, ...warnings] }
}

/** An edit of what the post says or where it goes; an action with only a new time is not one. */
const isContentEdit = (input: UpdatePostInput) =>
  Object.keys(input).some(
    (k) => k !== 'action' && k !== 'scheduledAt' && input[k as keyof UpdatePostInput] !== undefined,
  )

/**
 * The approval an edit leaves: the last round stays readable (its comment) when the post goes back to
 * DRAFT; when an edit sends the post out without a review (no approval required), a round in review or
 * approved no longer describes it and is dropped, so it can never pass for an approval of what goes out.
 */
function approvalAfterEdit(row: { approval: unknown }, input: UpdatePostInput, goesOut: boolean) {
  const round = row.approval as StoredApproval | null
  if (!goesOut || !round || !isContentEdit(input) || round.state === 'CHANGES_REQUESTED') return {}
  return { approval: null }
}

/**
 * The boards and destinations an edit leaves the post with, checked before the transaction (a
 * real account's listing is a network call, never made under the post's lock), on the post as
 * read now. Anything else wrong with the edit (unknown accounts, a post no longer editable) is the
 * transaction's to refuse, so this check steps aside for it.
 */
async function assertEditedBoards(deps: PostWriteDeps, workspaceId: string, postId: string, input: UpdatePostInput) {
  if (input.pinboardNetBoards === null && input.destinations === null) return
  const current = await getPost(deps.db, workspaceId, postId)
  if (current.status === 'PUBLISHED' || current.status === 'PUBLISHING') return
  const boards = input.pinboardNetBoards === null ? null : (input.pinboardNetBoards ?? current.pinboardNetBoards)
  const destinations = input.destinations === null ? null : (input.destinations ?? current.destinations)
  if (Object.keys(boards ?? {}).length === 0 && Object.keys(destinations ?? {}).length === 0) return
  let accounts: ValidationAccount[]
  try {
    accounts = await loadPostAccounts(deps.db, workspaceId, input.accountIds ?? current.accountIds)
  } catch {
    return
  }
  const intent = input.action && input.action !== 'draft' ? 'publish' : 'draft'
  await assertBoardsOfAccounts(deps, workspaceId, accounts, boards, intent)
  await assertDestinationsOfAccounts(deps, workspaceId, accounts, destinations, intent)
}

/** POST /posts/{id}/schedule: the same edit path with only a new time. */
export function reschedulePost(
  deps: PostWriteDeps,
  scope: WorkspaceScope,
  postId: string,
  scheduledAt: string,
  bodyWarnings: PostWarning[] = [],
): Promise<WrittenPost> {
  return updatePost(deps, scope, postId, { action: 'schedule', scheduledAt }, bodyWarnings)
}
