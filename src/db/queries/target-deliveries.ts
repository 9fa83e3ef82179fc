/**
 * Targets as the queue and the sweep see them: PENDING targets to hand to the queue (and the
 * note that they were), due ones no delivery reached, claims whose lease expired, and claims a
 * crash orphaned.
 */
import { and, eq, inArray, isNotNull, isNull, like, lt, ne, or, type SQL } from 'drizzle-orm'
import { posts, targets } from '../schema'
import type { DbOrTx } from '../types'
import type { TargetRow } from './targets'

/** What the queue needs to deliver a target: its due time, its attempt count and its post's version. */
export interface PendingDelivery {
  id: string
  dueAt: Date | null
  attempts: number
  version: number
}

/** Only the workspace's posts when one is given (a test sharing its database); all otherwise. */
const inWorkspace = (workspaceId: string | undefined) => (workspaceId ? eq(posts.workspaceId, workspaceId) : undefined)

/** PENDING targets meeting `conditions`, with their post's version. */
function selectPendingDeliveries(db: DbOrTx, ...conditions: (SQL | undefined)[]): Promise<PendingDelivery[]> {
  return db
    .select({ id: targets.id, dueAt: targets.dueAt, attempts: targets.attempts, version: posts.version })
    .from(targets)
    .innerJoin(posts, eq(posts.id, targets.postId))
    .where(and(eq(targets.status, 'PENDING'), ...conditions))
}

/** The post's PENDING targets (only those of `onlyTargetIds`, when given). */
export function selectPostPendingDeliveries(
  db: DbOrTx,
  postId: string,
  onlyTargetIds?: string[],
): Promise<PendingDelivery[]> {
  return selectPendingDeliveries(
    db,
    eq(targets.postId, postId),
    onlyTargetIds ? inArray(targets.id, onlyTargetIds) : undefined,
  )
}

/** The PENDING targets among `targetIds` whose post is still to publish, with their post's version. */
export function selectPendingDeliveriesOf(db: DbOrTx, targetIds: string[]): Promise<PendingDelivery[]> {
  return selectPendingDeliveries(db, inArray(targets.id, targetIds), inArray(posts.status, ['SCHEDULED', 'PUBLISHING']))
}

/**
 * Every PENDING target with a due time whose post is SCHEDULED or PUBLISHING, by due time and then
 * post by post (in their order), so a queue that takes them in this order claims a post's targets
 * together and writes their results together.
 */
export function selectAllPendingDeliveries(db: DbOrTx): Promise<PendingDelivery[]> {
  return db
    .select({ id: targets.id, dueAt: targets.dueAt, attempts: targets.attempts, version: posts.version })
    .from(targets)
    .innerJoin(posts, eq(posts.id, targets.postId))
    .where(
      and(eq(targets.status, 'PENDING'), isNotNull(targets.dueAt), inArray(posts.status, ['SCHEDULED', 'PUBLISHING'])),
    )
    .orderBy(targets.dueAt, targets.postId, targets.position)
}

/** Notes that these targets were handed at `at` to the queue of `by` (a Node boot; null: QStash). */
export async function markTargetsDispatched(
  db: DbOrTx,
  targetIds: string[],
  dispatch: { at: Date; by: string | null },
): Promise<void> {
  await db
    .update(targets)
    .set({ dispatchedAt: dispatch.at, dispatchedBy: dispatch.by })
    .where(inArray(targets.id, targetIds))
}

/** PUBLISHING targets whose claim's lease ran out before `now`. */
export function selectExpiredClaimIds(
  db: DbOrTx,
  options: { now: Date; workspaceId: string | undefined; limit: number },
): Promise<Array<{ id: string }>> {
  return db
    .select({ id: targets.id })
    .from(targets)
    .innerJoin(posts, eq(posts.id, targets.postId))
    .where(
      and(
        eq(targets.status, 'PUBLISHING'),
        isNotNull(targets.leaseUntil),
        lt(targets.leaseUntil, options.now),
        inWorkspace(options.workspaceId),
      ),
    )
    .limit(options.limit)
}

export interface ClaimTakeOver {
  now: Date
  leaseUntil: Date
  /** The new holder (this process), or null on Workers. */
  holder: string | null
}

/** Takes an expired claim over with a fresh lease (only one sweep can); the target or null. */
export async function takeOverExpiredClaim(
  db: DbOrTx,
  targetId: string,
  takeOver: ClaimTakeOver,
): Promise<TargetRow | null> {
  const [target] = await db
    .update(targets)
    .set({ leaseUntil: takeOver.leaseUntil, leaseHolder: takeOver.holder, updatedAt: takeOver.now })
    .where(and(eq(targets.id, targetId), eq(targets.status, 'PUBLISHING'), lt(targets.leaseUntil, takeOver.now)))
    .returning()
  return target ?? null
}

/**
 * Which claims a process knows are orphaned: at start-up on a database it holds alone (PGlite),
 * every claim not its own; on a shared one, the claims of its instance's earlier boots
 * (`<instance>/…`); on a live server, those of `deadHolder`, a boot that stopped beating, or its
 * own claims among `stranded`, targets whose work it gave up when the database went away.
 */
export interface OrphanedClaims {
  /** This boot's holder, `<instance>/<boot>` (both base62). */
  holder: string
  /** True on a database this process holds alone. */
  everyHolder: boolean
  /** Only the claims of this holder (another server's boot, found dead). */
  deadHolder?: string
  /** Only this boot's own claims of these targets (their work failed: nothing of this process holds them). */
  stranded?: string[]
}

function orphanedBy(orphans: OrphanedClaims) {
  if (orphans.deadHolder) return eq(targets.leaseHolder, orphans.deadHolder)
  if (orphans.stranded) return and(eq(targets.leaseHolder, orphans.holder), inArray(targets.id, orphans.stranded))
  const instance = orphans.holder.slice(0, orphans.holder.indexOf('/') + 1)
  const notOurs = or(isNull(targets.leaseHolder), ne(targets.leaseHolder, orphans.holder))
  return orphans.everyHolder
    ? notOurs
    : and(like(targets.leaseHolder, `${instance}%`), ne(targets.leaseHolder, orphans.holder))
}

/** PUBLISHING targets whose claim was orphaned by a crash (lease not yet expired). */
export function selectOrphanedClaimIds(
  db: DbOrTx,
  options: { orphans: OrphanedClaims; workspaceId: string | undefined; limit: number },
): Promise<Array<{ id: string }>> {
  return db
    .select({ id: targets.id })
    .from(targets)
    .where(
      and(
        eq(targets.status, 'PUBLISHING'),
        orphanedBy(options.orphans),
        options.workspaceId ? eq(targets.workspaceId, options.workspaceId) : undefined,
      ),
    )
    .limit(options.limit)
}

/** Takes an orphaned claim over with a fresh lease, whatever its expiry; the target or null. */
export async function takeOverOrphanedClaim(
  db: DbOrTx,
  targetId: string,
  takeOver: ClaimTakeOver & { orphans: OrphanedClaims },
): Promise<TargetRow | null> {
  const [target] = await db
    .update(targets)
    .set({ leaseUntil: takeOver.leaseUntil, leaseHolder: takeOver.holder, updatedAt: takeOver.now })
    .where(and(eq(targets.id, targetId), eq(targets.status, 'PUBLISHING'), orphanedBy(takeOver.orphans)))
    .returning()
  return target ?? null
}

/** The sweep could not learn what became of a claim: FAILED with `error`, if still PUBLISHING. */
export async function failUnconfirmedTarget(
  tx: DbOrTx,
  targetId: string,
  change: { now: Date; error: NonNullable<TargetRow['error']> },
): Promise<void> {
  await tx
    .update(targets)
    .set({ status: 'FAILED', leaseUntil: null, updatedAt: change.now, error: change.error })
    .where(and(eq(targets.id, targetId), eq(targets.status, 'PUBLISHING')))
}
