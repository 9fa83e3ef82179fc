/**
 * The activity log keeps each workspace's entries for its plan's `activity_retention_days`; the
 * scheduled job deletes older ones in batches, a bounded number per pass, so one pass never holds a
 * long transaction and a large backlog drains over a few minutes.
 */
import { deleteExpiredActivityBatch } from '../../db/queries/activity'
import type { Db } from '../../db/types'

export const ACTIVITY_CLEANUP_BATCH = 1000
export const ACTIVITY_CLEANUP_MAX_BATCHES = 20

/** Deletes the entries past their workspace's retention; answers how many. */
export async function purgeExpiredActivity(
  db: Db,
  options: { now: Date; batch?: number; maxBatches?: number },
): Promise<number> {
  const batch = options.batch ?? ACTIVITY_CLEANUP_BATCH
  const maxBatches = options.maxBatches ?? ACTIVITY_CLEANUP_MAX_BATCHES
  let deleted = 0
  for (let i = 0; i < maxBatches; i++) {
    const n = await deleteExpiredActivityBatch(db, options.now, batch)
    deleted += n
    if (n < batch) break
  }
  return deleted
}
