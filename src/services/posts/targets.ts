/**
 * A post's targets as a write leaves them: the rows of new targets (one per account, in order), and
 * the fields that make an existing target PENDING and due again (an edit, an approval's decision).
 */
import type { ValidationAccount } from '../../domain/post-validation'
import { newIds } from '../../lib/ids'

/** A PENDING target per account, its position the account's place in the list. */
export function newTargetRows(
  postId: string,
  workspaceId: string,
  accounts: ValidationAccount[],
  dueAt: Date | null,
  now: Date,
) {
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

/** A target PENDING and due at `dueAt`, with nothing left of an earlier attempt. */
export function pendingTargetFields(dueAt: Date | null, now: Date) {
  return {
    status: 'PENDING' as const,
    dueAt,
    error: null,
    attempts: 0,
    leaseUntil: null,
    claimedVersion: null,
    progress: null,
    updatedAt: now,
  }
}
