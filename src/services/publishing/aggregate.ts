import { lockPost, writeStatusFromTargets } from '../../db/queries/publishing-posts'
import { findPublishedTargetId } from '../../db/queries/targets'
import type { Tx } from '../../db/types'
import type { PostRow } from '../posts/record'
import { scheduleNextOccurrence } from './recurrence'
import type { Outbox } from '../webhooks/outbox'
import { type EngineEvent, postSettledEvent, recordPostSettled } from '../webhooks/publish-events'

/**
 * The post's status from its targets (docs/decisions.md, "Statuses"): all PUBLISHED -> PUBLISHED;
 * any still PENDING or PUBLISHING -> PUBLISHING; all settled with a FAILED one -> FAILED. Runs
 * under the post's row lock, so two targets settling at once cannot both read a stale picture.
 * Returns the post before and after, for what follows a settle (recurrence).
 */
export async function refreshPostStatus(
  tx: Tx,
  postId: string,
  now: Date,
  locked?: PostRow,
): Promise<{ before: PostRow; after: PostRow } | null> {
  // Callers lock the post first (before touching its targets) and may hand the locked row over.
  const before = locked ?? (await lockPost(tx, postId))
  if (!before) return null
  const after = await writeStatusFromTargets(tx, postId, now)
  if (!after) return null
  return { before, after }
}

/** Settled: nothing of the post is still on its way. */
export const isSettled = (status: string) => status === 'PUBLISHED' || status === 'FAILED'

/**
 * After a target settles: the post's status from its targets, and for a recurring post that
 * has settled with anything published, its next occurrence (created once: a later settle finds
 * the child). The post's settled event goes into `outbox` (or `events`). Returns the new occurrence's id, if one was made.
 */
export async function settlePost(
  tx: Tx,
  postId: string,
  now: Date,
  outbox: Outbox,
  locked?: PostRow,
  /** When given, the post's event is added here (recorded with the others of the transaction) rather than recorded. */
  events?: EngineEvent[],
): Promise<string | null> {
  const refreshed = await refreshPostStatus(tx, postId, now, locked)
  // post.published / post.failed, in this transaction (services/webhooks/outbox.ts).
  if (refreshed && events) {
    const event = await postSettledEvent(tx, refreshed.before, refreshed.after, now)
    if (event) events.push(event)
  } else if (refreshed) await recordPostSettled(tx, outbox, refreshed.before, refreshed.after, now)
  if (!refreshed || !isSettled(refreshed.after.status) || !refreshed.after.recurrence) return null
  const published = await findPublishedTargetId(tx, postId)
  return published !== null ? scheduleNextOccurrence(tx, refreshed.after, now) : null
}
