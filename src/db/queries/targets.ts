/**
 * The target rows of the publishing engine: a post's targets, the claim before a network call,
 * the progress saved during one, the result written after it, and the resets of a new round.
 */
import { and, eq, inArray, ne, notInArray, or, sql } from 'drizzle-orm'
import { columnsSet, updateFromArrays } from '../array-rows'
import { selectTableRows } from '../table-rows'
import type { TargetError } from '../../domain/vocabulary'
import { posts, targets } from '../schema'
import type { DbOrTx, Tx } from '../types'

export type TargetRow = typeof targets.$inferSelect
export type NewTargetRow = typeof targets.$inferInsert
/** The columns a network's answer changes on a target. */
export type TargetChange = Partial<NewTargetRow>

export function listPostTargets(tx: DbOrTx, postId: string): Promise<TargetRow[]> {
  return tx.select().from(targets).where(eq(targets.postId, postId))
}

/** Each target's status and publication time, for the post's status. */
export function listTargetOutcomes(
  tx: DbOrTx,
  postId: string,
): Promise<Array<Pick<TargetRow, 'status' | 'publishedAt'>>> {
  return tx
    .select({ status: targets.status, publishedAt: targets.publishedAt })
    .from(targets)
    .where(eq(targets.postId, postId))
}

/** One PUBLISHED target of the post, if it has any. */
export async function findPublishedTargetId(tx: DbOrTx, postId: string): Promise<string | null> {
  const published = await tx
    .select({ id: targets.id })
    .from(targets)
    .where(and(eq(targets.postId, postId), eq(targets.status, 'PUBLISHED')))
    .limit(1)
  return published[0]?.id ?? null
}

export function listFailedTargetIds(tx: DbOrTx, postId: string): Promise<Array<{ id: string }>> {
  return tx
    .select({ id: targets.id })
    .from(targets)
    .where(and(eq(targets.postId, postId), eq(targets.status, 'FAILED')))
}

export async function insertTargets(tx: DbOrTx, rows: NewTargetRow[]): Promise<void> {
  await tx.insert(targets).values(rows)
}

/** A manual publish or retry starts a new round: the transient-retry budget counts from here. */
const newRound = () =>
  sql`coalesce(${targets.progress}, '{}'::jsonb) || jsonb_build_object('roundStart', ${targets.attempts})`

/** Due now, with no error, no claim and a new round: what a manual publish or retry does to a target. */
const dueNowInNewRound = (now: Date) => ({
  status: 'PENDING' as const,
  dueAt: now,
  error: null,
  leaseUntil: null,
  progress: newRound(),
  updatedAt: now,
})

/** "Publish now": every target of the post not already published or publishing. */
export async function restartOpenTargets(tx: DbOrTx, postId: string, now: Date): Promise<void> {
  await tx
    .update(targets)
    .set(dueNowInNewRound(now))
    .where(and(eq(targets.postId, postId), notInArray(targets.status, ['PUBLISHED', 'PUBLISHING'])))
}

/** A retry: these (FAILED) targets. */
export async function restartTargets(tx: DbOrTx, targetIds: string[], now: Date): Promise<void> {
  await tx.update(targets).set(dueNowInNewRound(now)).where(inArray(targets.id, targetIds))
}

/**
 * PENDING -> PUBLISHING under a lease, if the target is due by `dueBy`; the claimed row or null.
 * A status check of a pending network job is not counted as a new attempt. The network call
 * follows this claim at once, so the claim itself is its "call started" marker (`callStartedAt`).
 */
export async function claimDueTarget(
  tx: Tx,
  targetId: string,
  claim: { version: number; now: Date; leaseUntil: Date; dueBy: Date; holder: string | null },
): Promise<TargetRow | null> {
  const [target] = await selectTableRows(
    tx,
    targets,
    sql`update targets set status = 'PUBLISHING', lease_until = ${claim.leaseUntil.toISOString()}::timestamptz,
      lease_holder = ${claim.holder}, claimed_version = ${claim.version},
      call_started_at = ${claim.now.toISOString()}::timestamptz,
      attempts = case when progress -> 'pending' is not null then attempts else attempts + 1 end,
      updated_at = ${claim.now.toISOString()}::timestamptz
      where id = ${targetId} and status = 'PENDING' and due_at <= ${claim.dueBy.toISOString()}::timestamptz
      returning *`,
  )
  return target ?? null
}

/** Saves an adapter's progress; the head post's network id becomes the target's, unless it has one. */
export async function saveTargetProgress(
  db: DbOrTx,
  targetId: string,
  progress: Record<string, unknown> & { headId?: string },
): Promise<void> {
  await db
    .update(targets)
    .set({
      progress: { ...progress },
      platformPostId: sql`coalesce(${targets.platformPostId}, ${progress.headId ?? null})`,
    })
    .where(eq(targets.id, targetId))
}

/**
 * Writes networks' answers onto targets (distinct ones), each only if it is still ours: PUBLISHING
 * under our own claim (fenced by its lease: a sweep that took the target over set a new one), or
 * marked unconfirmed by the sweep while we were still at it, in which case what the network really
 * answered is the truth to record. One statement per shape of change (the columns it sets: a
 * published answer's, a retry's, a failure's), so a post whose targets all published is one. Each
 * target as written, in order, or null where it was no longer ours.
 */
export async function writeTargetResults(
  tx: DbOrTx,
  writes: Array<{ claimed: { id: string; leaseUntil: Date | null }; change: TargetChange }>,
): Promise<Array<TargetRow | null>> {
  const byShape = new Map<string, typeof writes>()
  for (const write of writes) {
    const shape = columnsSet(write.change).join(',')
    byShape.set(shape, [...(byShape.get(shape) ?? []), write])
  }
  const written = new Map<string, TargetRow>()
  for (const group of byShape.values()) {
    const rows = await updateFromArrays(
      tx,
      targets,
      targets.id,
      group.map((w) => ({ key: w.claimed.id, set: w.change, match: { leaseUntil: w.claimed.leaseUntil } })),
      (matched) =>
        `(targets.status = 'PUBLISHING' and targets.lease_until is not distinct from ${matched('leaseUntil')})` +
        ` or (targets.status = 'FAILED' and targets.error ->> 'code' = 'unconfirmed')`,
    )
    for (const row of rows) written.set(row.id, row)
  }
  return writes.map((w) => written.get(w.claimed.id) ?? null)
}

/**
 * Deleting from the networks: the targets still waiting to publish stop (FAILED with this error,
 * not due), so no delivery publishes them while their post is being taken down.
 */
export async function stopPendingTargets(
  tx: DbOrTx,
  targetIds: string[],
  error: TargetError,
  now: Date,
): Promise<void> {
  if (targetIds.length === 0) return
  await tx
    .update(targets)
    .set({ status: 'FAILED', error, dueAt: null, leaseUntil: null, updatedAt: now })
    .where(and(inArray(targets.id, targetIds), eq(targets.status, 'PENDING')))
}

/**
 * Drops targets with nothing left to do at their network, each only if its status is still the one
 * it was planned with (a target retried and published meanwhile stays); the ids removed.
 */
export async function removeSettledTargets(
  tx: DbOrTx,
  planned: Array<{ id: string; status: TargetRow['status'] }>,
): Promise<string[]> {
  if (planned.length === 0) return []
  const rows = await tx
    .delete(targets)
    .where(
      and(
        or(...planned.map((p) => and(eq(targets.id, p.id), eq(targets.status, p.status)))),
        ne(targets.status, 'PUBLISHING'),
      ),
    )
    .returning({ id: targets.id })
  return rows.map((r) => r.id)
}

/** Notes in the target's progress, under `key`, the network ids already removed, so a retry skips them. */
export async function noteRemovedIds(tx: DbOrTx, targetId: string, key: string, ids: string[]): Promise<void> {
  await tx
    .update(targets)
    .set({
      progress: sql`coalesce(${targets.progress}, '{}'::jsonb) || jsonb_build_object(${key}::text, ${JSON.stringify(ids)}::jsonb)`,
    })
    .where(eq(targets.id, targetId))
}

/** The posts (not drafts) with a PENDING target on this account, in id order (the order they are locked in). */
export async function listPostsWithPendingTargets(tx: DbOrTx, accountId: string): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ postId: targets.postId })
    .from(targets)
    .innerJoin(posts, eq(posts.id, targets.postId))
    .where(and(eq(targets.accountId, accountId), eq(targets.status, 'PENDING'), ne(posts.status, 'DRAFT')))
    .orderBy(targets.postId)
  return rows.map((r) => r.postId)
}

/** The post's PENDING targets on this account end FAILED with `error`; the ids of those that did. */
export async function failPendingTargetsOfAccount(
  tx: DbOrTx,
  postId: string,
  accountId: string,
  error: TargetError,
  now: Date,
): Promise<string[]> {
  const rows = await tx
    .update(targets)
    .set({ status: 'FAILED', error, dueAt: null, leaseUntil: null, updatedAt: now })
    .where(and(eq(targets.postId, postId), eq(targets.accountId, accountId), eq(targets.status, 'PENDING')))
    .returning({ id: targets.id })
  return rows.map((r) => r.id)
}
