/** Queries of the webhook endpoint aggregate: every read and write by id also filters on the workspace. */
import { and, asc, count, eq, sql } from 'drizzle-orm'
import { webhookEndpoints } from '../schema'
import { resultRows } from '../table-rows'
import type { DbOrTx } from '../types'

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect
export type NewWebhookEndpointRow = typeof webhookEndpoints.$inferInsert

export async function insertEndpointRow(tx: DbOrTx, values: NewWebhookEndpointRow): Promise<WebhookEndpointRow> {
  const [row] = await tx.insert(webhookEndpoints).values(values).returning()
  return row!
}

export async function countWorkspaceEndpoints(tx: DbOrTx, workspaceId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, workspaceId))
  return row?.n ?? 0
}

/** The workspace's endpoints, oldest first. */
export function listWorkspaceEndpoints(db: DbOrTx, workspaceId: string): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, workspaceId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id))
}

export async function findWorkspaceEndpoint(
  db: DbOrTx,
  workspaceId: string,
  endpointId: string,
): Promise<WebhookEndpointRow | null> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, workspaceId)))
  return row ?? null
}

/** The endpoint by id alone (the delivery worker knows it from the outbox row). */
export async function findEndpoint(db: DbOrTx, endpointId: string): Promise<WebhookEndpointRow | null> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId))
  return row ?? null
}

export async function updateWorkspaceEndpoint(
  tx: DbOrTx,
  workspaceId: string,
  endpointId: string,
  values: Partial<NewWebhookEndpointRow>,
): Promise<WebhookEndpointRow | null> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set(values)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, workspaceId)))
    .returning()
  return row ?? null
}

export async function deleteWorkspaceEndpoint(db: DbOrTx, workspaceId: string, endpointId: string): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, workspaceId)))
    .returning({ id: webhookEndpoints.id })
  return rows.length > 0
}

/** An enabled endpoint and the event types it takes. */
export type EnabledEndpoint = { id: string; events: string[] }

/** The workspace's enabled endpoints and the event types each takes (one read for many events). */
export async function selectEnabledEndpointEvents(tx: DbOrTx, workspaceId: string): Promise<EnabledEndpoint[]> {
  const result = await tx.execute(
    sql`select id, events from webhook_endpoints where workspace_id = ${workspaceId} and enabled order by id`,
  )
  return resultRows(result).map((raw) => ({
    id: raw.id as string,
    events: webhookEndpoints.events.mapFromDriverValue(raw.events) as string[],
  }))
}

/** Enabled endpoints of the workspace subscribed to `type`. */
export async function selectSubscribedEndpointIds(tx: DbOrTx, workspaceId: string, type: string): Promise<string[]> {
  const rows = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.workspaceId, workspaceId),
        eq(webhookEndpoints.enabled, true),
        sql`${webhookEndpoints.events} @> ${JSON.stringify([type])}::jsonb`,
      ),
    )
  return rows.map((r) => r.id)
}

/** After a failed attempt: the endpoint is failing since now, unless it already was. Answers since when. */
export async function markEndpointFailing(tx: DbOrTx, endpointId: string, now: Date): Promise<Date | null> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)` })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning({ failingSince: webhookEndpoints.failingSince })
  return row?.failingSince ?? null
}

export async function markEndpointSucceeded(tx: DbOrTx, endpointId: string): Promise<void> {
  await tx
    .update(webhookEndpoints)
    .set({ failingSince: null })
    .where(and(eq(webhookEndpoints.id, endpointId), sql`${webhookEndpoints.failingSince} is not null`))
}

/** Disables an enabled endpoint; false when it was not enabled (another attempt got there first). */
export async function disableEndpoint(tx: DbOrTx, endpointId: string, reason: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: now })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id })
  return rows.length > 0
}
