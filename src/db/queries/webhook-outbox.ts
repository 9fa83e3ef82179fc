/**
 * Queries of the webhook outbox: events and their delivery rows (written in the transaction of the
 * change they report), the worker's claim, the attempt log and the sweep's selection.
 */
import { and, eq, inArray, isNotNull, lt, lte } from 'drizzle-orm'
import { insertFromArraysStatement } from '../array-rows'
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../schema'
import type { DbOrTx } from '../types'

export type WebhookEventRow = typeof webhookEvents.$inferSelect
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect
type NewDelivery = typeof webhookDeliveries.$inferInsert

export async function insertEventRow(tx: DbOrTx, values: typeof webhookEvents.$inferInsert): Promise<void> {
  await tx.insert(webhookEvents).values(values)
}

/** Several events in one statement (a transaction that settles several targets at once). */
export async function insertEventRows(tx: DbOrTx, rows: Array<typeof webhookEvents.$inferInsert>): Promise<void> {
  if (rows.length > 0) await tx.execute(insertFromArraysStatement(webhookEvents, rows))
}

export async function insertDeliveryRows(tx: DbOrTx, rows: NewDelivery[]): Promise<void> {
  if (rows.length > 0) await tx.execute(insertFromArraysStatement(webhookDeliveries, rows))
}

export async function findWorkspaceEvent(
  db: DbOrTx,
  workspaceId: string,
  eventId: string,
): Promise<WebhookEventRow | null> {
  const [row] = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.workspaceId, workspaceId)))
  return row ?? null
}

/** What one attempt needs: the claimed delivery, its event's payload and its endpoint. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRow
  event: WebhookEventRow
  endpoint: typeof webhookEndpoints.$inferSelect
}

/**
 * Takes a due PENDING delivery for one attempt: its next attempt time moves to `leaseUntil`, so a
 * concurrent trigger or sweep finds nothing to take. Null when it is not due or not pending.
 */
export async function claimDelivery(
  db: DbOrTx,
  deliveryId: string,
  claim: { now: Date; leaseUntil: Date },
): Promise<ClaimedDelivery | null> {
  const [delivery] = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: claim.leaseUntil, updatedAt: claim.now })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.status, 'PENDING'),
        lte(webhookDeliveries.nextAttemptAt, claim.now),
      ),
    )
    .returning()
  if (!delivery) return null
  const [joined] = await db
    .select({ event: webhookEvents, endpoint: webhookEndpoints })
    .from(webhookEvents)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, delivery.endpointId))
    .where(eq(webhookEvents.id, delivery.eventId))
  return joined ? { delivery, ...joined } : null
}

export async function insertAttemptRow(tx: DbOrTx, values: typeof webhookAttempts.$inferInsert): Promise<void> {
  await tx.insert(webhookAttempts).values(values)
}

/** Writes an attempt's outcome onto its delivery, only while the claim is still the one given. */
export async function settleDelivery(
  tx: DbOrTx,
  deliveryId: string,
  claimedUntil: Date,
  change: Pick<NewDelivery, 'status' | 'attempts' | 'nextAttemptAt' | 'deliveredAt' | 'updatedAt'>,
): Promise<boolean> {
  const rows = await tx
    .update(webhookDeliveries)
    .set(change)
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.status, 'PENDING'),
        eq(webhookDeliveries.nextAttemptAt, claimedUntil),
      ),
    )
    .returning({ id: webhookDeliveries.id })
  return rows.length > 0
}

/** Every PENDING delivery of an endpoint ends FAILED (it was disabled or deleted). */
export async function failPendingDeliveriesOf(tx: DbOrTx, endpointId: string, now: Date): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ status: 'FAILED', nextAttemptAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'PENDING')))
}

/** Due PENDING deliveries (a crash between commit and send, a lost trigger, a retry), oldest due first. */
export async function selectDueDeliveries(
  db: DbOrTx,
  query: { now: Date; limit: number; workspaceId?: string | undefined },
): Promise<Array<{ id: string; nextAttemptAt: Date }>> {
  const rows = await db
    .select({ id: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'PENDING'),
        isNotNull(webhookDeliveries.nextAttemptAt),
        lte(webhookDeliveries.nextAttemptAt, query.now),
        query.workspaceId ? eq(webhookDeliveries.workspaceId, query.workspaceId) : undefined,
      ),
    )
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(query.limit)
  return rows.map((r) => ({ id: r.id, nextAttemptAt: r.nextAttemptAt! }))
}

/** The attempts of these deliveries, in attempt order. */
export function selectAttemptsOf(db: DbOrTx, deliveryIds: string[]): Promise<WebhookAttemptRow[]> {
  if (deliveryIds.length === 0) return Promise.resolve([])
  return db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(webhookAttempts.deliveryId, webhookAttempts.attempt)
}

/** Deletes at most `limit` events created before `before` (their deliveries and attempts go with them). */
export async function deleteEventsBefore(
  db: DbOrTx,
  query: { before: Date; limit: number; workspaceId?: string | undefined },
): Promise<number> {
  const old = db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(
      and(
        lt(webhookEvents.createdAt, query.before),
        query.workspaceId ? eq(webhookEvents.workspaceId, query.workspaceId) : undefined,
      ),
    )
    .limit(query.limit)
  const rows = await db.delete(webhookEvents).where(inArray(webhookEvents.id, old)).returning({ id: webhookEvents.id })
  return rows.length
}
