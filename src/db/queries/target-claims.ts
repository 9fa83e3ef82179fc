/**
 * The batch claim of the in-process queue: many due targets claimed in one transaction, their posts
 * locked first (FOR UPDATE SKIP LOCKED, in id order), as the single claim in targets.ts does for one;
 * the "call started" markers of its calls, and the release of a claim whose call never started.
 */
import { and, eq, isNull, sql } from 'drizzle-orm'
import { posts, targets } from '../schema'
import { resultRows, tableRows } from '../table-rows'
import type { DbOrTx, Tx } from '../types'
import type { PostRow } from './posts'
import type { TargetRow } from './targets'

/**
 * The posts of these targets, each locked (FOR UPDATE SKIP LOCKED, in post id order), with the id
 * of each target. A post another transaction holds is left out, and so is a target that is gone.
 */
export async function lockPostsOfTargets(
  tx: Tx,
  targetIds: string[],
): Promise<Array<{ targetId: string; post: PostRow }>> {
  const result = await tx.execute(
    sql`select t.id as "targetIdOfLock", p.* from posts p join targets t on t.post_id = p.id
      where t.id = any(${sql.param(targetIds)}::text[]) order by p.id for update of p skip locked`,
  )
  const locked = tableRows(posts, result)
  return resultRows(result).map((raw, i) => ({ targetId: raw.targetIdOfLock as string, post: locked[i]! }))
}

/** Which of these targets exist (their post was locked by another transaction when they were left out). */
export async function selectExistingTargetIds(db: DbOrTx, targetIds: string[]): Promise<Set<string>> {
  if (targetIds.length === 0) return new Set()
  const result = await db.execute(sql`select id from targets where id = any(${sql.param(targetIds)}::text[])`)
  return new Set(resultRows(result).map((r) => r.id as string))
}

/**
 * PENDING -> PUBLISHING under a lease for each of these targets that is due by `dueBy`, and their
 * SCHEDULED posts to PUBLISHING, in one statement; the claimed rows. The caller holds their posts'
 * locks and has checked each delivery's version against its post, so the claim records the post's
 * version. A status check of a pending network job is not counted as a new attempt.
 */
export async function claimDueTargets(
  tx: Tx,
  targetIds: string[],
  claim: { now: Date; leaseUntil: Date; dueBy: Date; holder: string | null },
): Promise<TargetRow[]> {
  if (targetIds.length === 0) return []
  // Each call is marked when it starts (`markCallsStarted`): a batch's calls start one by one.
  const result = await tx.execute(
    sql`with claimed as (update targets set status = 'PUBLISHING',
        lease_until = ${claim.leaseUntil.toISOString()}::timestamptz, lease_holder = ${claim.holder},
        claimed_version = (select p.version from posts p where p.id = targets.post_id),
        call_started_at = null,
        attempts = case when targets.progress -> 'pending' is not null
          then targets.attempts else targets.attempts + 1 end,
        updated_at = ${claim.now.toISOString()}::timestamptz
        where targets.id = any(${sql.param(targetIds)}::text[]) and targets.status = 'PENDING'
          and targets.due_at <= ${claim.dueBy.toISOString()}::timestamptz
        returning targets.*),
      publishing as (update posts set status = 'PUBLISHING'
        where id in (select post_id from claimed) and status = 'SCHEDULED')
      select * from claimed`,
  )
  return tableRows(targets, result)
}

/**
 * The "call started" markers of batch-claimed targets (distinct ones), written in one statement just
 * before their network calls, each only if its claim is still ours (PUBLISHING under our lease: a
 * sweep that took it over set a new one). The ids marked; a target not among them must not be called.
 */
export async function markCallsStarted(
  db: DbOrTx,
  claimed: Array<{ id: string; leaseUntil: Date | null }>,
  at: Date,
): Promise<Set<string>> {
  const leased = claimed.filter((c) => c.leaseUntil !== null)
  if (leased.length === 0) return new Set()
  const result = await db.execute(
    sql`update targets set call_started_at = ${at.toISOString()}::timestamptz
      from unnest(${sql.param(leased.map((c) => c.id))}::text[],
        ${sql.param(leased.map((c) => c.leaseUntil!.toISOString()))}::timestamptz[]) as claim(id, lease_until)
      where targets.id = claim.id and targets.status = 'PUBLISHING' and targets.lease_until = claim.lease_until
      returning targets.id`,
  )
  return new Set(resultRows(result).map((r) => r.id as string))
}

/**
 * A claim whose network call never started (no marker), taken over after a crash or an expired
 * lease: back to PENDING, due as it was, its attempt not counted (the claim counted it); the
 * released row, or null if it changed meanwhile (the holder marked its call, or it settled).
 */
export async function releaseUnstartedClaim(
  db: DbOrTx,
  claimed: { id: string; leaseUntil: Date | null },
  now: Date,
): Promise<TargetRow | null> {
  if (!claimed.leaseUntil) return null
  const [row] = await db
    .update(targets)
    .set({
      status: 'PENDING',
      leaseUntil: null,
      leaseHolder: null,
      attempts: sql`case when ${targets.progress} -> 'pending' is not null then ${targets.attempts} else greatest(${targets.attempts} - 1, 0) end`,
      updatedAt: now,
    })
    .where(
      and(
        eq(targets.id, claimed.id),
        eq(targets.status, 'PUBLISHING'),
        eq(targets.leaseUntil, claimed.leaseUntil),
        isNull(targets.callStartedAt),
      ),
    )
    .returning()
  return row ?? null
}
