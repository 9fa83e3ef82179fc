/**
 * What an approval's intent does, checked at submit and applied at approve exactly as schedule,
 * queue and publish now do it (./timing.ts, the targets made due), inside the caller's transaction.
 */
import { selectPostTargets, updatePostTarget } from '../../db/queries/posts'
import type { Tx } from '../../db/types'
import type { Deps } from '../../deps'
import type { ApprovalIntent } from '../../domain/approval'
import { assertBoardsOfAccounts } from '../accounts/boards'
import { assertDestinationsOfAccounts } from '../accounts/destinations'
import { lockWorkspace } from '../workspace/lock'
import { assertValidContent, contentOf } from './content'
import { loadPostAccounts, loadPostMedia } from './load'
import type { PostRow } from './record'
import { pendingTargetFields } from './targets'
import { type PostTiming, timingFor } from './timing'

const accountIdsOf = (targets: Array<{ accountId: string; position: number }>) =>
  [...targets].sort((a, b) => a.position - b.position).map((t) => t.accountId)

/** The post's accounts (connected ones only) and its media, and whether its content may go out. */
async function assertPublishable(tx: Tx, row: PostRow, scheduledAt: Date | null) {
  const accountIds = accountIdsOf(await selectPostTargets(tx, row.id))
  const accounts = await loadPostAccounts(tx, row.workspaceId, accountIds, { requireConnected: true })
  const media = await loadPostMedia(tx, row.workspaceId, row.mediaIds)
  assertValidContent(contentOf(row), accounts, media, 'publish', scheduledAt)
  return accounts
}

/**
 * Every check scheduling would run on the post with this intent (the content rules, connected
 * accounts, a future time, a queue with a free slot), without changing anything: a post that cannot
 * go out is refused when submitted, not when approved. Locks the workspace (the queue's lock).
 */
export async function checkIntent(tx: Tx, row: PostRow, intent: ApprovalIntent, now: Date): Promise<void> {
  const ws = await lockWorkspace(tx, row.workspaceId)
  const scheduledAt = intent.scheduledAt ? new Date(intent.scheduledAt) : null
  await assertPublishable(tx, row, scheduledAt)
  await timingFor(tx, { action: intent.action, scheduledAt, workspaceId: row.workspaceId, timezone: ws.timezone, now })
}

/** The boards and destinations (for a real account, network calls): checked before the transaction. */
export async function checkIntentBoards(
  deps: Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock'>,
  row: PostRow,
): Promise<void> {
  const accountIds = accountIdsOf(await selectPostTargets(deps.db, row.id))
  const accounts = await loadPostAccounts(deps.db, row.workspaceId, accountIds)
  await assertBoardsOfAccounts(deps, row.workspaceId, accounts, row.pinboardNetBoards ?? null, 'publish')
  await assertDestinationsOfAccounts(deps, row.workspaceId, accounts, row.destinations ?? null, 'publish')
}

/**
 * The timing the intent gives now (the checks again: time may have passed, an account may have
 * been disconnected during the review). The caller writes it with the decision and then calls
 * `makeTargetsDue`; after the commit, the targets are handed to the queue.
 */
export async function timingOfIntent(tx: Tx, row: PostRow, intent: ApprovalIntent, now: Date): Promise<PostTiming> {
  const ws = await lockWorkspace(tx, row.workspaceId)
  const scheduledAt = intent.scheduledAt ? new Date(intent.scheduledAt) : null
  await assertPublishable(tx, row, intent.action === 'now' ? now : scheduledAt)
  return timingFor(tx, { action: intent.action, scheduledAt, workspaceId: row.workspaceId, timezone: ws.timezone, now })
}

/** Every target of the post PENDING and due at `dueAt`, as an edit with an action leaves them. */
export async function makeTargetsDue(tx: Tx, postId: string, dueAt: Date | null, now: Date): Promise<void> {
  for (const t of await selectPostTargets(tx, postId)) {
    await updatePostTarget(tx, postId, t.accountId, pendingTargetFields(dueAt, now))
  }
}
