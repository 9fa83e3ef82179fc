/** Queries of the activity log: who did what, when, from where. */
import { activityLog } from '../schema'
import type { DbOrTx } from '../types'

export type ActivityRow = typeof activityLog.$inferSelect

/** Writes one entry (in the transaction of the change it reports). */
export async function insertActivity(db: DbOrTx, row: typeof activityLog.$inferInsert): Promise<void> {
  await db.insert(activityLog).values(row)
}
