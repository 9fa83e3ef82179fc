/**
 * Creating a post (POST /posts, the dashboard's compose, bulk creation): the post and one target per
 * account written in one transaction, with an idempotency key's first answer when there is one.
 */
import { insertPostWithTargets, postRowsAsInserted } from '../../db/queries/posts'
import { replacePostLabels } from '../../db/queries/labels'
import { notApplicableWarnings, type PostWarning, type ValidationAccount } from '../../domain/post-validation'
import { newId } from '../../lib/ids'
import { recordPostCreated } from '../activity/posts'
import { callerOfScope, type WorkspaceScope } from '../activity/scope'
import { firstAnswerRecord, idempotencyKeyTaken, type IdempotentWrite } from '../idempotency'
import { loadPostLabels } from '../labels/labels'
import { notifyExpiringTokens } from '../notifications/triggers'
import { dispatchWrittenTargets } from '../publishing/dispatch'
import { approvalRequiredOf } from './approval-gate'
import { admitCreate, assertCreatable, resolveCreate } from './check'
import { toPostRecord } from './record'
import { newTargetRows } from './targets'
import { timingColumns } from './timing'
import { tokenExpiryWarnings } from './token-warnings'
import type { CreatePostInput, PostWriteDeps, WrittenPost } from './types'

const accountIdsOf = (accounts: ValidationAccount[]) => accounts.map((a) => a.id)

/**
 * Creates a post and one target per distinct account, in one transaction, after the checks of
 * ./check.ts (the dry run runs the same). Answers the post with its warnings: `bodyWarnings` (the
 * body's unknown fields, found by the route) and the fields none of its networks uses. With
 * `idempotency`, that answer is stored as the key's first answer in the same statement as the post,
 * or, when the key was taken meanwhile, nothing is written (409 `idempotency_key_in_use`, which the
 * route's middleware turns into the key's answer).
 */
export async function createPost(
  deps: PostWriteDeps,
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
    const targetValues = newTargetRows(id, workspaceId, accounts, timing.dueAt, now)
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
