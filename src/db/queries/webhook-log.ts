/**
 * The reading side of webhooks: an endpoint's delivery log and the workspace's events, newest
 * first (ties by id), a page at a time after the row a cursor names (compared as (created_at, id)
 * with that row's own values). Every query filters on the workspace.
 */
import { and, desc, eq, gte, sql } from 'drizzle-orm'
import type { StoredEventType, WebhookDeliveryStatus } from '../../domain/webhooks/events'
import { webhookDeliveries, webhookEvents } from '../schema'
import type { DbOrTx } from '../types'
import type { WebhookDeliveryRow, WebhookEventRow } from './webhook-outbox'

export async function hasEndpointDelivery(db: DbOrTx, endpointId: string, deliveryId: string): Promise<boolean> {
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)))
  return rows.length > 0
}

/** One delivery of the workspace by id, or null. */
export async function findWorkspaceDelivery(
  db: DbOrTx,
  workspaceId: string,
  deliveryId: string,
): Promise<WebhookDeliveryRow | null> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.workspaceId, workspaceId)))
  return row ?? null
}

export function selectDeliveryPage(
  db: DbOrTx,
  page: {
    workspaceId: string
    endpointId: string
    status?: WebhookDeliveryStatus | undefined
    eventType?: StoredEventType | undefined
    afterId?: string | undefined
    limit: number
  },
): Promise<WebhookDeliveryRow[]> {
  const after =
    page.afterId === undefined
      ? undefined
      : sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (select d.created_at, d.id
          from webhook_deliveries d where d.id = ${page.afterId} and d.endpoint_id = ${page.endpointId})`
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.workspaceId, page.workspaceId),
        eq(webhookDeliveries.endpointId, page.endpointId),
        page.status ? eq(webhookDeliveries.status, page.status) : undefined,
        page.eventType ? eq(webhookDeliveries.eventType, page.eventType) : undefined,
        after,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(page.limit)
}

export async function hasWorkspaceEvent(db: DbOrTx, workspaceId: string, eventId: string): Promise<boolean> {
  const rows = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.workspaceId, workspaceId)))
  return rows.length > 0
}

export function selectEventPage(
  db: DbOrTx,
  page: {
    workspaceId: string
    since: Date
    type?: StoredEventType | undefined
    afterId?: string | undefined
    limit: number
  },
): Promise<WebhookEventRow[]> {
  const after =
    page.afterId === undefined
      ? undefined
      : sql`(${webhookEvents.createdAt}, ${webhookEvents.id}) < (select e.created_at, e.id
          from webhook_events e where e.id = ${page.afterId} and e.workspace_id = ${page.workspaceId})`
  return db
    .select()
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.workspaceId, page.workspaceId),
        gte(webhookEvents.createdAt, page.since),
        page.type ? eq(webhookEvents.type, page.type) : undefined,
        after,
      ),
    )
    .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.id))
    .limit(page.limit)
}
