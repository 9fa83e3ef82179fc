/** Queries of the activity log: who did what, when, from where. */
import { and, eq, gte, like, lt, sql } from 'drizzle-orm'
import { activityLog } from '../schema'
import type { DbOrTx } from '../types'

export type ActivityRow = typeof activityLog.$inferSelect

/** Writes one entry (in the transaction of the change it reports). */
export async function insertActivity(db: DbOrTx, row: typeof activityLog.$inferInsert): Promise<void> {
  await db.insert(activityLog).values(row)
}

/** The filters of a page of the log; `actionPrefix` ends with a dot (`post.`). */
export interface ActivityFilter {
  workspaceId: string
  actorKind?: string | undefined
  actorId?: string | undefined
  action?: string | undefined
  actionPrefix?: string | undefined
  subjectType?: string | undefined
  subjectId?: string | undefined
  /** Included. */
  from?: Date | undefined
  /** Excluded. */
  to?: Date | undefined
}

/** `%` and `_` of a prefix matched literally by LIKE. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** Entries of the workspace after the one with id `afterId` (in the page order), none when it is another's. */
const afterEntry = (workspaceId: string, afterId: string | undefined) =>
  afterId === undefined
    ? undefined
    : sql`(${activityLog.at}, ${activityLog.id}) < (select a.at, a.id from activity_log a
        where a.id = ${afterId} and a.workspace_id = ${workspaceId})`

function whereOf(f: ActivityFilter, afterId: string | undefined) {
  return and(
    eq(activityLog.workspaceId, f.workspaceId),
    f.actorKind ? eq(activityLog.actorKind, f.actorKind as ActivityRow['actorKind']) : undefined,
    f.actorId ? eq(activityLog.actorId, f.actorId) : undefined,
    f.action ? eq(activityLog.action, f.action) : undefined,
    f.actionPrefix ? like(activityLog.action, likePrefix(f.actionPrefix)) : undefined,
    f.subjectType ? eq(activityLog.subjectType, f.subjectType) : undefined,
    f.subjectId ? eq(activityLog.subjectId, f.subjectId) : undefined,
    f.from ? gte(activityLog.at, f.from) : undefined,
    f.to ? lt(activityLog.at, f.to) : undefined,
    afterEntry(f.workspaceId, afterId),
  )
}

/**
 * A page of the log, newest first. The ORDER BY is the index's own (`activity_log_workspace_at_idx`:
 * drizzle declares `.desc()` as DESC NULLS LAST), so the page is read along it rather than sorted.
 */
export function selectActivityPage(
  db: DbOrTx,
  filter: ActivityFilter,
  page: { afterId?: string | undefined; limit: number },
): Promise<ActivityRow[]> {
  return db
    .select()
    .from(activityLog)
    .where(whereOf(filter, page.afterId))
    .orderBy(sql`${activityLog.at} desc nulls last`, sql`${activityLog.id} desc nulls last`)
    .limit(page.limit)
}

/** How many entries match after `afterId` (what a CSV left off). */
export async function countActivity(
  db: DbOrTx,
  filter: ActivityFilter,
  page: { afterId?: string | undefined },
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(activityLog)
    .where(whereOf(filter, page.afterId))
  return row?.n ?? 0
}

export async function activityEntryExists(db: DbOrTx, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: activityLog.id })
    .from(activityLog)
    .where(and(eq(activityLog.id, id), eq(activityLog.workspaceId, workspaceId)))
  return rows.length > 0
}

/**
 * Deletes up to `limit` entries older than their workspace's plan keeps them
 * (`plans.activity_retention_days`); answers how many.
 */
export async function deleteExpiredActivityBatch(db: DbOrTx, now: Date, limit: number): Promise<number> {
  const rows = await db
    .delete(activityLog)
    .where(
      sql`${activityLog.id} in (select a.id from activity_log a
        join workspaces w on w.id = a.workspace_id
        join plans p on p.id = w.plan_id
        where a.at < cast(${now.toISOString()} as timestamptz) - make_interval(days => p.activity_retention_days)
        limit ${limit})`,
    )
    .returning({ id: activityLog.id })
  return rows.length
}
