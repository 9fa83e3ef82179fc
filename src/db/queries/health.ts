/** Queries behind `GET /health`: whether the database answers, and what the publishing engine has left behind. */
import { and, count, eq, lt, min, sql } from 'drizzle-orm'
import { targets } from '../schema'
import type { DbOrTx } from '../types'

/** One round trip that needs no table: the database is reachable and answers. */
export async function pingDatabase(db: DbOrTx): Promise<void> {
  await db.execute(sql`select 1`)
}

export interface PublishingBacklogRow {
  /** Targets still PENDING whose time came before `overdueBefore`. */
  overdue: number
  /** The earliest due time among them (null when there are none). */
  oldestDueAt: Date | null
  /** Targets in PUBLISHING whose claim's lease ran out before `now` (the sweep has not taken them over yet). */
  expiredClaims: number
}

/** Counts over the due index (`targets_due_idx`: status, due_at), across every workspace. */
export async function selectPublishingBacklog(
  db: DbOrTx,
  at: { now: Date; overdueBefore: Date },
): Promise<PublishingBacklogRow> {
  const [overdue] = await db
    .select({ n: count(), oldest: min(targets.dueAt) })
    .from(targets)
    .where(and(eq(targets.status, 'PENDING'), lt(targets.dueAt, at.overdueBefore)))
  const [expired] = await db
    .select({ n: count() })
    .from(targets)
    .where(and(eq(targets.status, 'PUBLISHING'), lt(targets.leaseUntil, at.now)))
  const oldest = overdue?.oldest ?? null
  return {
    overdue: Number(overdue?.n ?? 0),
    oldestDueAt: oldest === null ? null : new Date(oldest),
    expiredClaims: Number(expired?.n ?? 0),
  }
}
