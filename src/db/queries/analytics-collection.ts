/**
 * Queries of an analytics collection pass: what is due (accounts without today's follower
 * snapshot, published targets whose last metrics are older than their age's interval), the
 * accounts to call, and the snapshots written back.
 */
import { and, asc, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm'
import { accounts, followerSnapshots, targetMetricSnapshots, targets, workspaces } from '../schema'
import type { DbOrTx } from '../types'
import { latestTargetSnapshot } from './analytics'

export type NewMetricSnapshotRow = typeof targetMetricSnapshots.$inferInsert

/** What a collection pass reads of a target due for metrics. */
export const DUE_TARGET_COLUMNS = {
  id: targets.id,
  accountId: targets.accountId,
  platformPostId: targets.platformPostId,
  publishedAt: targets.publishedAt,
}

/** How often a target is collected: every `everyHours` while it is younger than `untilAgeHours`. */
export type CollectionSchedule = ReadonlyArray<{ untilAgeHours: number; everyHours: number }>

/** SQL interval (in hours) a target of this age waits between two collections. */
const intervalHours = (schedule: CollectionSchedule, nowIso: string) =>
  sql`case ${sql.join(
    schedule.map(
      (s) =>
        sql`when ${nowIso}::timestamptz - ${targets.publishedAt} < ${sql.raw(`${s.untilAgeHours}`)} * interval '1 hour' then ${sql.raw(`${s.everyHours}`)}`,
    ),
    sql` `,
  )} end`

/** Only the workspace's accounts when one is given; every workspace's otherwise. */
const inWorkspace = (workspaceId: string | undefined) =>
  workspaceId ? eq(accounts.workspaceId, workspaceId) : undefined

/** ACTIVE accounts without today's follower snapshot (today in the workspace's time zone), by id. */
export function selectAccountsDueFollowers(
  db: DbOrTx,
  options: { workspaceId: string | undefined; nowIso: string; limit: number },
): Promise<Array<{ id: string }>> {
  const { nowIso } = options
  return db
    .select({ id: accounts.id })
    .from(accounts)
    .innerJoin(workspaces, eq(workspaces.id, accounts.workspaceId))
    .where(
      and(
        eq(accounts.status, 'ACTIVE'),
        inWorkspace(options.workspaceId),
        sql`not exists (select 1 from ${followerSnapshots} f where f.account_id = ${accounts.id} and f.day = (${nowIso}::timestamptz at time zone ${workspaces.timezone})::date)`,
      ),
    )
    .orderBy(asc(accounts.id))
    .limit(options.limit)
}

/**
 * Published targets of ACTIVE accounts, published between `since` and now, whose last
 * collection is older than their age's interval: stalest first.
 */
export function selectTargetsDueMetrics(
  db: DbOrTx,
  options: {
    workspaceId: string | undefined
    now: Date
    nowIso: string
    since: Date
    schedule: CollectionSchedule
    limit: number
  },
) {
  const { now, nowIso } = options
  const last = latestTargetSnapshot(db)
  return db
    .select(DUE_TARGET_COLUMNS)
    .from(targets)
    .innerJoin(accounts, eq(accounts.id, targets.accountId))
    .leftJoinLateral(last, sql`true`)
    .where(
      and(
        eq(targets.status, 'PUBLISHED'),
        isNotNull(targets.platformPostId),
        gte(targets.publishedAt, options.since),
        lte(targets.publishedAt, now),
        eq(accounts.status, 'ACTIVE'),
        inWorkspace(options.workspaceId),
        sql`(${last.collectedAt} is null or ${last.collectedAt} <= ${nowIso}::timestamptz - ${intervalHours(options.schedule, nowIso)} * interval '1 hour')`,
      ),
    )
    .orderBy(sql`${last.collectedAt} asc nulls first`, asc(targets.publishedAt))
    .limit(options.limit)
}

/** The accounts to call, with their sealed credentials and today's date (`YYYY-MM-DD`) in their workspace's zone. */
export function selectAccountsToCollect(db: DbOrTx, accountIds: string[], nowIso: string) {
  const localDay = sql<string>`to_char((${nowIso}::timestamptz at time zone ${workspaces.timezone})::date, 'YYYY-MM-DD')`
  return db
    .select({
      id: accounts.id,
      platform: accounts.platform,
      connection: accounts.connection,
      credentials: accounts.credentials,
      timezone: workspaces.timezone,
      day: localDay,
    })
    .from(accounts)
    .innerJoin(workspaces, eq(workspaces.id, accounts.workspaceId))
    .where(inArray(accounts.id, accountIds))
}

/** The day's follower count of the account; a second collection on the same day replaces the first. */
export async function upsertFollowerSnapshot(
  db: DbOrTx,
  snapshot: { accountId: string; day: string; followers: number | null; collectedAt: Date },
): Promise<void> {
  await db
    .insert(followerSnapshots)
    .values(snapshot)
    .onConflictDoUpdate({
      target: [followerSnapshots.accountId, followerSnapshots.day],
      set: { followers: snapshot.followers, collectedAt: snapshot.collectedAt },
    })
}

export async function insertMetricSnapshots(db: DbOrTx, rows: NewMetricSnapshotRow[]): Promise<void> {
  await db.insert(targetMetricSnapshots).values(rows)
}
