/**
 * The publishing engine's events, recorded inside the transaction that settles a target or a post
 * (record-result.ts, the sweep, aggregate.ts) and the deletion of a post (posts/delete.ts).
 */
import { selectPostTargets, type PostRow, type TargetRow } from '../../db/queries/posts'
import type { Tx } from '../../db/types'
import { toPostRecord, toTargetRecord, type PostRecord } from '../posts/record'
import { type NewEvent, recordEvent, recordEvents, type Outbox } from './outbox'
import { notifyTargetFailed } from '../notifications/triggers'
import { recordEngineActivity } from '../activity/engine'

/** An event of the engine, before it is recorded (with others of its transaction: `recordEvents`). */
export type EngineEvent = Omit<NewEvent, 'workspaceId' | 'endpointIds'>

/** `target.published` or `target.failed` if the target as written has just settled so; else null. */
export function targetSettledEvent(postId: string, target: TargetRow, now: Date): EngineEvent | null {
  if (target.status !== 'PUBLISHED' && target.status !== 'FAILED') return null
  return {
    type: target.status === 'PUBLISHED' ? 'target.published' : 'target.failed',
    data: { postId, target: toTargetRecord(target) },
    now,
  }
}

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
  const event = target ? targetSettledEvent(post.id, target, now) : null
  if (!event) return
  await recordEvent(tx, outbox, { ...event, workspaceId: post.workspaceId })
  await recordEngineActivity(tx, post.workspaceId, [event])
  if (target?.status === 'FAILED') {
    await notifyTargetFailed(tx, { workspaceId: post.workspaceId, postId: post.id, target, now })
  }
}

/** `post.published` or `post.failed` if the post's status has just become that; else null. */
export async function postSettledEvent(
  tx: Tx,
  before: PostRow,
  after: PostRow,
  now: Date,
): Promise<EngineEvent | null> {
  if (before.status === after.status || (after.status !== 'PUBLISHED' && after.status !== 'FAILED')) return null
  const record = toPostRecord(after, await selectPostTargets(tx, after.id))
  return { type: after.status === 'PUBLISHED' ? 'post.published' : 'post.failed', data: { ...record }, now }
}

/** `post.published` or `post.failed`, when the post's status has just become that. */
export async function recordPostSettled(tx: Tx, outbox: Outbox, before: PostRow, after: PostRow, now: Date) {
  const event = await postSettledEvent(tx, before, after, now)
  if (!event) return
  await recordEvents(tx, outbox, after.workspaceId, [event])
  await recordEngineActivity(tx, after.workspaceId, [event])
}

/** `post.deleted`, with the post as it was. */
export async function recordPostDeleted(tx: Tx, outbox: Outbox, workspaceId: string, post: PostRecord, now: Date) {
  await recordEvent(tx, outbox, { workspaceId, type: 'post.deleted', data: { ...post }, now })
}
