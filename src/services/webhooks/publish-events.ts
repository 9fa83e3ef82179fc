/**
 * The publishing engine's events, recorded inside the transaction that settles a target or a post
 * (record-result.ts, the sweep, aggregate.ts) and the deletion of a post (posts/write.ts).
 */
import { selectPostTargets, type PostRow, type TargetRow } from '../../db/queries/posts'
import type { Tx } from '../../db/types'
import { toPostRecord, toTargetRecord, type PostRecord } from '../posts/record'
import { recordEvent, type Outbox } from './outbox'

/** `target.published` or `target.failed`, when the target has just settled so (`written`: the row as just written, if at hand). */
export async function recordTargetSettled(
  tx: Tx,
  outbox: Outbox,
  post: Pick<PostRow, 'id' | 'workspaceId'>,
  targetId: string,
  now: Date,
  written?: TargetRow,
): Promise<void> {
  const target = written ?? (await selectPostTargets(tx, post.id)).find((t) => t.id === targetId)
  if (!target || (target.status !== 'PUBLISHED' && target.status !== 'FAILED')) return
  await recordEvent(tx, outbox, {
    workspaceId: post.workspaceId,
    type: target.status === 'PUBLISHED' ? 'target.published' : 'target.failed',
    data: { postId: post.id, target: toTargetRecord(target) },
    now,
  })
}

/** `post.published` or `post.failed`, when the post's status has just become that. */
export async function recordPostSettled(tx: Tx, outbox: Outbox, before: PostRow, after: PostRow, now: Date) {
  if (before.status === after.status || (after.status !== 'PUBLISHED' && after.status !== 'FAILED')) return
  const record = toPostRecord(after, await selectPostTargets(tx, after.id))
  await recordEvent(tx, outbox, {
    workspaceId: after.workspaceId,
    type: after.status === 'PUBLISHED' ? 'post.published' : 'post.failed',
    data: { ...record },
    now,
  })
}

/** `post.deleted`, with the post as it was. */
export async function recordPostDeleted(tx: Tx, outbox: Outbox, workspaceId: string, post: PostRecord, now: Date) {
  await recordEvent(tx, outbox, { workspaceId, type: 'post.deleted', data: { ...post }, now })
}
