/**
 * Queries of the webhook outbox: events and their delivery rows (written in the transaction of the
 * change they report), the attempt log and the purge (the worker's batch claim: webhook-claims.ts).
 */
import { and, eq, inArray, lt } from 'drizzle-orm'
import { insertFromArraysStatement } from '../array-rows'
import { webhookAttempts, webhookDeliveries, type webhookEndpoints, webhookEvents } from '../schema'
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

/** Every PENDING delivery of an endpoint ends FAILED (it was disabled or deleted). */
export async function failPendingDeliveriesOf(tx: DbOrTx, endpointId: string, now: Date): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ status: 'FAILED', nextAttemptAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'PENDING')))
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
