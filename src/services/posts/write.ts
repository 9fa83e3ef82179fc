import {
  deleteTargetsOutside,
  deleteWorkspacePost,
  hasTargetGoneOut,
  insertPostWithTargets,
  insertTargets,
  lockWorkspacePost,
  postRowsAsInserted,
  selectPostTargets,
  updatePostRow,
  updatePostTarget,
} from '../../db/queries/posts'
import type { Tx } from '../../db/types'
import type { Deps } from '../../deps'
import { AppError, notFound } from '../../domain/errors'
import { newId, newIds } from '../../lib/ids'
import { notApplicableWarnings, type PostWarning, type ValidationAccount } from '../../domain/post-validation'
import { mergeContent } from '../../domain/post-content'
import type { StoredApproval } from '../../domain/approval'
import { approvalRequiredOf, assertGoOutGate } from './approval-gate'
import { admitCreate, assertCreatable, resolveCreate } from './check'
import { assertValidContent, contentOf } from './content'
import { assertServicePost } from './external'
import { loadPostAccounts, loadPostMedia } from './load'
import { dispatchPendingTargets, dispatchWrittenTargets } from '../publishing/dispatch'
import { getPost } from './read'
import { toPostRecord } from './record'
import { timingFor } from './timing'
import { tokenExpiryWarnings } from './token-warnings'
import { notifyExpiringTokens } from '../notifications/triggers'
import type { CreatePostInput, UpdatePostInput, WrittenPost } from './types'
import { lockWorkspace } from '../workspace/lock'
import { assertBoardsOfAccounts } from '../accounts/boards'
import { assertDestinationsOfAccounts } from '../accounts/destinations'
import { newOutbox, sendOutbox } from '../webhooks/outbox'
import { recordPostDeleted } from '../webhooks/publish-events'
import { firstAnswerRecord, idempotencyKeyTaken, type IdempotentWrite } from '../idempotency'
import { loadPostLabels, setPostLabels } from '../labels/labels'
import { replacePostLabels } from '../../db/queries/labels'
import { changedFields, recordPostAction, recordPostCreated, recordPostEdited } from '../activity/posts'
import { callerOfScope, type WorkspaceScope } from '../activity/scope'

type PostDeps = Pick<
  Deps,
  'db' | 'clock' | 'publishQueue' | 'logger' | 'cipher' | 'networks' | 'webhookQueue' | 'settings'
>

/**
 * Who writes: a caller (the post records who created it), or only the workspace (the service's own
 * writes, the dashboard until it passes its member).
 */
const accountIdsOf = (accounts: ValidationAccount[]) => accounts.map((a) => a.id)

const parseTime = (iso: string | null | undefined) => (iso ? new Date(iso) : null)

function targetRows(postId: string, workspaceId: string, accounts: ValidationAccount[], dueAt: Date | null, now: Date) {
  const ids = newIds('target', accounts.length)
  return accounts.map((a, position) => ({
    id: ids[position]!,
    postId,
    workspaceId,
    accountId: a.id,
    platform: a.platform,
    position,
    status: 'PENDING' as const,
    dueAt,
    createdAt: now,
    updatedAt: now,
  }))
}

/**
 * Creates a post and one target per distinct account, in one transaction, after the checks of
 * ./check.ts (the dry run runs the same). Answers the post with its warnings: `bodyWarnings` (the
 * body's unknown fields, found by the route) and the fields none of its networks uses. With
 * `idempotency`, that answer is stored as the key's first answer in the same statement as the post,
 * or, when the key was taken meanwhile, nothing is written (409 `idempotency_key_in_use`, which the
 * route's middleware turns into the key's answer).
 */
export async function createPost(
  deps: PostDeps,
  scope: WorkspaceScope,
  input: CreatePostInput,
  bodyWarnings: PostWarning[] = [],
  idempotency?: IdempotentWrite,
): Promise<WrittenPost> {
  const caller = callerOfScope(scope)
  const { workspaceId } = caller
  const now = deps.clock.now()
  const createdBy = typeof scope === 'string' ? null : scope.actor
  const draft = await resolveCreate(deps.db, workspaceId, input)
  // Before the transaction: for a real account the boards check may be a network call.
  await assertCreatable(deps, workspaceId, draft)
  const { content, accounts } = draft
  const id = newId('post')
  // The rows are known before they are written, so the answer is too: nothing is read back.
  const written = await deps.db.transaction(async (tx) => {
    const timing = await admitCreate(tx, workspaceId, draft, now)
    const postValues = {
      id,
      workspaceId,
      ...content,
      ...timingColumns(timing),
      createdBy,
      createdAt: now,
      updatedAt: now,
    }
    const targetValues = targetRows(id, workspaceId, accounts, timing.dueAt, now)
    const rows = postRowsAsInserted(postValues, targetValues)
    const labels = await loadPostLabels(tx, workspaceId, input.labelIds ?? [])
    const expiring = await tokenExpiryWarnings({ db: tx, cipher: deps.cipher }, workspaceId, accounts, timing.dueAt)
    const answer: WrittenPost = {
      ...toPostRecord(
        rows.post,
        rows.targets,
        await approvalRequiredOf(tx, workspaceId, accountIdsOf(accounts)),
        labels,
      ),
      warnings: [...bodyWarnings, ...notApplicableWarnings(content, accounts), ...expiring],
    }
    const stored = idempotency && firstAnswerRecord(workspaceId, idempotency, answer, now)
    if (!(await insertPostWithTargets(tx, postValues, targetValues, stored))) throw idempotencyKeyTaken()
    await notifyExpiringTokens(tx, { workspaceId, postId: id, warnings: expiring, now })
    await replacePostLabels(
      tx,
      workspaceId,
      id,
      labels.map((l) => l.id),
    )
    await recordPostCreated(tx, caller, {
      postId: id,
      action: input.action,
      timing,
      now,
      accountIds: answer.accountIds,
    })
    return { ...rows, answer }
  })
  const { post, targets } = written
  await dispatchWrittenTargets(
    deps,
    id,
    targets.map((t) => ({ id: t.id, dueAt: t.dueAt, attempts: t.attempts, version: post.version })),
  )
  return written.answer
}

function timingColumns(t: Awaited<ReturnType<typeof timingFor>>) {
  return { status: t.status, scheduledAt: t.scheduledAt, queued: t.queued, queueSlotAt: t.queueSlotAt }
}

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
  deps: PostDeps,
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
    if (added.length > 0) await insertTargets(tx, targetRows(postId, workspaceId, added, timing.dueAt, now))
    for (const [position, account] of accounts.entries()) {
      await updatePostTarget(tx, postId, account.id, {
        position,
        status: 'PENDING',
        dueAt: timing.dueAt,
        error: null,
        attempts: 0,
        leaseUntil: null,
        claimedVersion: null,
        progress: null,
        updatedAt: now,
      })
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
async function assertEditedBoards(deps: PostDeps, workspaceId: string, postId: string, input: UpdatePostInput) {
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
  deps: PostDeps,
  scope: WorkspaceScope,
  postId: string,
  scheduledAt: string,
  bodyWarnings: PostWarning[] = [],
): Promise<WrittenPost> {
  return updatePost(deps, scope, postId, { action: 'schedule', scheduledAt }, bodyWarnings)
}

/**
 * Removes the service's copy (its targets with it); what was published on a network stays there.
 * A delivery still on its way finds no target to claim and does nothing. `post.deleted` (with the
 * post as it was) is recorded in the same transaction.
 */
export async function deletePost(
  deps: PostDeps,
  scope: WorkspaceScope,
  postId: string,
): Promise<{ id: string; deleted: true }> {
  const caller = callerOfScope(scope)
  const { workspaceId } = caller
  const outbox = newOutbox()
  await deps.db.transaction(async (tx) => {
    // The post first, then its targets: the lock order of the engine.
    const locked = await lockWorkspacePost(tx, workspaceId, postId)
    if (!locked) throw notFound('Post')
    assertServicePost(locked)
    const record = await getPost(tx, workspaceId, postId)
    if (!(await deleteWorkspacePost(tx, workspaceId, postId))) throw notFound('Post')
    const now = deps.clock.now()
    await recordPostDeleted(tx, outbox, workspaceId, record, now)
    await recordPostAction(tx, caller, {
      postId,
      action: 'post.deleted',
      words: `deleted post ${postId}`,
      details: { status: record.status, accountIds: record.accountIds },
      now,
    })
  })
  await sendOutbox(deps, outbox)
  return { id: postId, deleted: true }
}
