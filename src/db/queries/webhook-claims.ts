/**
 * The delivery worker's batch statements: many due deliveries claimed in one statement (FOR UPDATE
 * SKIP LOCKED, so two workers on one database never take the same row), what they need read in two,
 * and the results of many attempts written in a few (one update of the deliveries, one insert of
 * the attempts, one update of the endpoints).
 */
import { and, inArray, sql } from 'drizzle-orm'
import { insertFromArraysStatement, updateFromArrays } from '../array-rows'
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../schema'
import { resultRows, tableRows } from '../table-rows'
import type { DbOrTx } from '../types'
import type { WebhookDeliveryRow, WebhookEventRow } from './webhook-outbox'

type EndpointRow = typeof webhookEndpoints.$inferSelect

export interface DeliveryClaim {
  now: Date
  leaseUntil: Date
  /** Most rows taken. */
  limit: number
  /** Only these deliveries (the queue's triggers); absent: any due one, oldest due first. */
  ids?: string[] | undefined
  workspaceId?: string | undefined
}

/**
 * Takes up to `limit` due PENDING deliveries for one attempt each, in one statement: their next
 * attempt time moves to `leaseUntil`, so no other worker, trigger or sweep takes them until the
 * lease ends. Rows another transaction holds are skipped, not waited for. The selection is a
 * materialized CTE: as `id in (subquery)` the planner may run the limited subquery again per row.
 */
export async function claimDueDeliveries(db: DbOrTx, claim: DeliveryClaim): Promise<WebhookDeliveryRow[]> {
  if (claim.ids?.length === 0 || claim.limit < 1) return []
  const now = claim.now.toISOString()
  const only = claim.ids ? sql`and id = any(${sql.param(claim.ids)}::text[])` : sql``
  const workspace = claim.workspaceId ? sql`and workspace_id = ${claim.workspaceId}` : sql``
  const result = await db.execute(
    sql`with due as materialized (select id from webhook_deliveries
          where status = 'PENDING' and next_attempt_at <= ${now}::timestamptz ${only} ${workspace}
          order by next_attempt_at limit ${claim.limit} for update skip locked)
      update webhook_deliveries set next_attempt_at = ${claim.leaseUntil.toISOString()}::timestamptz,
        updated_at = ${now}::timestamptz
      from due where webhook_deliveries.id = due.id
        and webhook_deliveries.status = 'PENDING' and webhook_deliveries.next_attempt_at <= ${now}::timestamptz
      returning webhook_deliveries.*`,
  )
  return tableRows(webhookDeliveries, result)
}

/** The events and endpoints of claimed deliveries, each read once. */
export async function selectDeliveryContext(
  db: DbOrTx,
  deliveries: WebhookDeliveryRow[],
): Promise<{ events: Map<string, WebhookEventRow>; endpoints: Map<string, EndpointRow> }> {
  const eventIds = [...new Set(deliveries.map((d) => d.eventId))]
  const endpointIds = [...new Set(deliveries.map((d) => d.endpointId))]
  if (eventIds.length === 0) return { events: new Map(), endpoints: new Map() }
  const events = await db.select().from(webhookEvents).where(inArray(webhookEvents.id, eventIds))
  const endpoints = await db.select().from(webhookEndpoints).where(inArray(webhookEndpoints.id, endpointIds))
  return { events: new Map(events.map((e) => [e.id, e])), endpoints: new Map(endpoints.map((e) => [e.id, e])) }
}

/** One attempt's outcome on its delivery, written only while the claim (`claimedUntil`) is still the one given. */
export interface DeliverySettlement {
  id: string
  claimedUntil: Date
  status: 'PENDING' | 'DELIVERED' | 'FAILED'
  attempts: number
  nextAttemptAt: Date | null
  deliveredAt: Date | null
  updatedAt: Date
}

/** Many settlements in one statement; the ids written (a delivery whose claim was lost is not among them). */
export async function settleDeliveries(tx: DbOrTx, settlements: DeliverySettlement[]): Promise<Set<string>> {
  const rows = await updateFromArrays(
    tx,
    webhookDeliveries,
    webhookDeliveries.id,
    settlements.map((s) => ({
      key: s.id,
      set: {
        status: s.status,
        attempts: s.attempts,
        nextAttemptAt: s.nextAttemptAt,
        deliveredAt: s.deliveredAt,
        updatedAt: s.updatedAt,
      },
      match: { nextAttemptAt: s.claimedUntil },
    })),
    (matched) =>
      `"webhook_deliveries"."status" = 'PENDING' and "webhook_deliveries"."next_attempt_at" = ${matched('nextAttemptAt')}`,
  )
  return new Set(rows.map((r) => r.id))
}

export async function insertAttemptRows(tx: DbOrTx, rows: Array<typeof webhookAttempts.$inferInsert>): Promise<void> {
  if (rows.length > 0) await tx.execute(insertFromArraysStatement(webhookAttempts, rows))
}

/** Each endpoint's `failing_since`, set to `now` where it was not set: when its failures began. */
export async function markEndpointsFailing(tx: DbOrTx, endpointIds: string[], now: Date): Promise<Map<string, Date>> {
  if (endpointIds.length === 0) return new Map()
  const result = await tx.execute(
    sql`update webhook_endpoints set failing_since = coalesce(failing_since, ${now.toISOString()}::timestamptz)
      where id = any(${sql.param(endpointIds)}::text[]) returning id, failing_since`,
  )
  return new Map(resultRows(result).map((r) => [r.id as string, new Date(r.failing_since as string | Date)]))
}

/** A success clears each endpoint's `failing_since`. */
export async function markEndpointsSucceeded(tx: DbOrTx, endpointIds: string[]): Promise<void> {
  if (endpointIds.length === 0) return
  await tx
    .update(webhookEndpoints)
    .set({ failingSince: null })
    .where(and(inArray(webhookEndpoints.id, endpointIds), sql`${webhookEndpoints.failingSince} is not null`))
}
