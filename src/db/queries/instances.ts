/**
 * The Node servers on this database (`server_instances`, one row per boot) and the deliveries each
 * holds in its in-process queue (`targets.dispatched_by`): heartbeats, the start-up requeue split
 * between servers, and the hand-over of a dead boot's work to a live one. Every time is the
 * database's own clock (`now()`), so servers on machines whose clocks differ agree on who is dead.
 */
import { and, eq, inArray, like, ne, sql } from 'drizzle-orm'
import { serverInstances } from '../schema'
import { resultRows } from '../table-rows'
import type { DbOrTx } from '../types'
import type { PendingDelivery } from './target-deliveries'

/**
 * Records a beat of `holder` (its row made when missing), and of the dead boots it is resolving
 * (`resolving`: their rows stay taken by it); true when `holder`'s row was there already.
 */
export async function recordBeat(db: DbOrTx, holder: string, resolving: string[] = []): Promise<boolean> {
  const beat = await db
    .update(serverInstances)
    .set({ lastSeenAt: sql`now()` })
    .where(inArray(serverInstances.holder, [holder, ...resolving]))
    .returning({ holder: serverInstances.holder })
  if (beat.some((r) => r.holder === holder)) return true
  await db
    .insert(serverInstances)
    .values({ holder })
    .onConflictDoUpdate({ target: serverInstances.holder, set: { lastSeenAt: sql`now()` } })
  return false
}

/** A row that goes: a dead boot whose claims and deliveries were all taken over. */
export async function removeInstance(db: DbOrTx, holder: string): Promise<void> {
  await db.delete(serverInstances).where(eq(serverInstances.holder, holder))
}

/**
 * A clean stop, once its publishes in flight have finished: the row says the boot is gone (last
 * seen at the epoch), so the next beat of any live server takes over the deliveries its queue held
 * (scheduled for later) and then removes the row.
 */
export async function retireInstance(db: DbOrTx, holder: string): Promise<void> {
  await db.update(serverInstances).set({ lastSeenAt: sql`to_timestamp(0)` }).where(eq(serverInstances.holder, holder))
}

/** The rows of this instance's earlier boots (`<instance>/…` but not `holder`): a restart knows they are dead. */
export async function removeEarlierBoots(db: DbOrTx, holder: string): Promise<void> {
  const instance = holder.slice(0, holder.indexOf('/') + 1)
  await db
    .delete(serverInstances)
    .where(and(like(serverInstances.holder, `${instance}%`), ne(serverInstances.holder, holder)))
}

/**
 * Boots that have not beaten for `deadAfterSec`, each taken for resolution by `me` alone: its row's
 * `last_seen_at` moves to now (FOR UPDATE SKIP LOCKED: a boot another server is taking is left to
 * it), so no other server takes it again before `deadAfterSec` more; if `me` dies meanwhile, another
 * one does then. The holders taken.
 */
export async function takeDeadInstances(
  db: DbOrTx,
  options: { me: string; deadAfterSec: number; limit: number },
): Promise<string[]> {
  const result = await db.execute(
    sql`update server_instances set last_seen_at = now()
      where holder in (select holder from server_instances
        where last_seen_at < now() - make_interval(secs => ${options.deadAfterSec}) and holder <> ${options.me}
        order by last_seen_at limit ${options.limit} for update skip locked)
      returning holder`,
  )
  return resultRows(result).map((r) => r.holder as string)
}

/** A PENDING delivery taken into a queue, with what orders a post's targets together. */
export interface TakenDelivery extends PendingDelivery {
  postId: string
  position: number
}

/**
 * Every due-timed PENDING target of a SCHEDULED or PUBLISHING post whose delivery sits with no live
 * server (`from`: only those of that holder; else those of no holder, of a holder without a
 * recent beat, or of an earlier boot of `me`'s instance), now noted as dispatched to `me`. A row
 * another server takes at the same moment goes to one of them (the update locks it).
 */
export async function takeOverDeliveries(
  db: DbOrTx,
  options: { me: string; now: Date; deadAfterSec: number; from?: string },
): Promise<TakenDelivery[]> {
  const whose = options.from
    ? sql`t.dispatched_by = ${options.from}`
    : sql`(t.dispatched_by is null or t.dispatched_by not in (select holder from server_instances
          where last_seen_at >= now() - make_interval(secs => ${options.deadAfterSec}) and holder <> ${options.me}))`
  const result = await db.execute(
    sql`update targets t set dispatched_by = ${options.me}, dispatched_at = ${options.now.toISOString()}::timestamptz
      from posts p
      where p.id = t.post_id and t.status = 'PENDING' and t.due_at is not null
        and p.status in ('SCHEDULED', 'PUBLISHING') and ${whose}
      returning t.id, t.due_at, t.attempts, p.version, t.post_id, t.position`,
  )
  return takenRows(result)
}

/**
 * The sweep's re-dispatch: due PENDING targets of SCHEDULED or PUBLISHING posts, due before `stale`
 * and not handed to a queue since, each noted as dispatched now to `me` (null on Workers) by one
 * sweep alone (rows another sweep is taking are skipped): the targets to hand to the queue.
 */
export async function takeUndeliveredTargets(
  db: DbOrTx,
  options: { me: string | null; now: Date; stale: Date; workspaceId: string | undefined; limit: number },
): Promise<TakenDelivery[]> {
  const stale = options.stale.toISOString()
  const result = await db.execute(
    sql`update targets t set dispatched_by = ${options.me}, dispatched_at = ${options.now.toISOString()}::timestamptz
      from posts p
      where p.id = t.post_id and t.id in (select u.id from targets u join posts q on q.id = u.post_id
        where u.status = 'PENDING' and u.due_at <= ${stale}::timestamptz
          and q.status in ('SCHEDULED', 'PUBLISHING')
          and (u.dispatched_at is null or u.dispatched_at < ${stale}::timestamptz)
          ${options.workspaceId ? sql`and q.workspace_id = ${options.workspaceId}` : sql``}
        limit ${options.limit} for update of u skip locked)
        and t.status = 'PENDING' and (t.dispatched_at is null or t.dispatched_at < ${stale}::timestamptz)
      returning t.id, t.due_at, t.attempts, p.version, t.post_id, t.position`,
  )
  return takenRows(result)
}

/** Taken rows in the order a queue claims them best: by due time, then post by post, in their order. */
function takenRows(result: Parameters<typeof resultRows>[0]): TakenDelivery[] {
  return resultRows(result)
    .map((r) => ({
      id: r.id as string,
      dueAt: new Date(r.due_at as string),
      attempts: Number(r.attempts),
      version: Number(r.version),
      postId: r.post_id as string,
      position: Number(r.position),
    }))
    .sort(
      (a, b) =>
        a.dueAt!.getTime() - b.dueAt!.getTime() ||
        (a.postId < b.postId ? -1 : a.postId > b.postId ? 1 : 0) ||
        a.position - b.position,
    )
}
