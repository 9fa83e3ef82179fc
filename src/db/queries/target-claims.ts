/**
 * The batch claim of the in-process queue: many due targets claimed in one transaction, their posts
 * locked first (FOR UPDATE SKIP LOCKED, in id order), as the single claim in targets.ts does for one;
 * the "call started" markers of its calls, and the release of a claim whose call never started.
 */
import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm'
import { updateFromArrays } from '../array-rows'
import { posts, targets } from '../schema'
import type { DbOrTx, Tx } from '../types'
import type { PostRow } from './posts'
import type { TargetRow } from './targets'

/**
 * The posts of these targets, each locked (FOR UPDATE SKIP LOCKED, in post id order), with the id
 * of each target. A post another transaction holds is left out, and so is a target that is gone.
 */
export function lockPostsOfTargets(tx: Tx, targetIds: string[]): Promise<Array<{ targetId: string; post: PostRow }>> {
  return tx
    .select({ targetId: targets.id, post: posts })
    .from(posts)
    .innerJoin(targets, eq(targets.postId, posts.id))
    .where(inArray(targets.id, targetIds))
    .orderBy(posts.id)
    .for('update', { of: posts, skipLocked: true })
}

/** Which of these targets exist (their post was locked by another transaction when they were left out). */
export async function selectExistingTargetIds(db: DbOrTx, targetIds: string[]): Promise<Set<string>> {
  if (targetIds.length === 0) return new Set()
  const rows = await db.select({ id: targets.id }).from(targets).where(inArray(targets.id, targetIds))
  return new Set(rows.map((r) => r.id))
}

/**
 * PENDING -> PUBLISHING under a lease for each of these targets that is due by `dueBy`; the claimed
 * rows. The caller holds their posts' locks and has checked each delivery's version against its
 * post, so the claim records the post's version. A status check of a pending network job is not
 * counted as a new attempt.
 */
export async function claimDueTargets(
  tx: Tx,
  targetIds: string[],
  claim: { now: Date; leaseUntil: Date; dueBy: Date; holder: string | null },
): Promise<TargetRow[]> {
  if (targetIds.length === 0) return []
  return tx
    .update(targets)
    .set({
      status: 'PUBLISHING',
      leaseUntil: claim.leaseUntil,
      leaseHolder: claim.holder,
      claimedVersion: sql`(select p.version from posts p where p.id = ${targets.postId})`,
      // Each call is marked when it starts (`markCallsStarted`): a batch's calls start one by one.
      callStartedAt: null,
      attempts: sql`case when ${targets.progress} -> 'pending' is not null then ${targets.attempts} else ${targets.attempts} + 1 end`,
      updatedAt: claim.now,
    })
    .where(and(inArray(targets.id, targetIds), eq(targets.status, 'PENDING'), lte(targets.dueAt, claim.dueBy)))
    .returning()
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
  const rows = await updateFromArrays(
    db,
    targets,
    targets.id,
    leased.map((c) => ({ key: c.id, set: { callStartedAt: at }, match: { leaseUntil: c.leaseUntil } })),
    (matched) => and(eq(targets.status, 'PUBLISHING'), eq(targets.leaseUntil, matched('leaseUntil'))),
  )
  return new Set(rows.map((r) => r.id))
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

/** Claimed deliveries move their SCHEDULED posts to PUBLISHING (nothing else changes). */
export async function markPostsPublishing(tx: DbOrTx, postIds: string[]): Promise<void> {
  if (postIds.length === 0) return
  await tx
    .update(posts)
    .set({ status: 'PUBLISHING' })
    .where(and(inArray(posts.id, postIds), eq(posts.status, 'SCHEDULED')))
}
