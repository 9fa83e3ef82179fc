/** Queries of a workspace's weekly queue schedule: its slots, replaced as a whole. */
import { asc, eq } from 'drizzle-orm'
import { queueSlots } from '../schema'
import type { DbOrTx } from '../types'

export type QueueSlotRow = typeof queueSlots.$inferSelect

/** The slots in week order (Sunday first, then by time of day). */
export function listQueueSlots(db: DbOrTx, workspaceId: string): Promise<QueueSlotRow[]> {
  return db
    .select()
    .from(queueSlots)
    .where(eq(queueSlots.workspaceId, workspaceId))
    .orderBy(asc(queueSlots.weekday), asc(queueSlots.minutes))
}

export async function deleteQueueSlots(tx: DbOrTx, workspaceId: string): Promise<void> {
  await tx.delete(queueSlots).where(eq(queueSlots.workspaceId, workspaceId))
}

export async function insertQueueSlots(
  tx: DbOrTx,
  slots: Array<{ id: string; workspaceId: string; weekday: number; minutes: number }>,
): Promise<void> {
  await tx.insert(queueSlots).values(slots)
}
