/**
 * The event stream's reads (`GET /v1/events/stream`, docs/webhooks.md): a workspace's events in the
 * order (writing transaction id, position), released only below the oldest transaction still
 * running, so no event can later appear before one already sent. And the open streams' slots.
 */
import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm'
import type { StoredEventType, WebhookPayload } from '../../domain/webhooks/events'
import { eventStreams, webhookEvents } from '../schema'
import type { DbOrTx } from '../types'

/** A place in a workspace's stream: after the event of this transaction id (decimal text) and position. */
export interface StreamCursor {
  txId: string
  position: number
}

export interface StreamEventRow {
  id: string
  txId: string
  position: number
  payload: WebhookPayload
}

/** Below this transaction id every transaction has ended: what is visible there stays as it is. */
const horizon = sql`pg_snapshot_xmin(pg_current_snapshot())`

/**
 * The place "now" for a stream without a last event: the horizon, and the ids of the workspace's
 * events already committed at or above it (not to be sent as new).
 */
export async function selectStreamStart(
  db: DbOrTx,
  workspaceId: string,
): Promise<{ cursor: StreamCursor; committed: string[] }> {
  const result = await db.execute(sql`select ${horizon}::text as "txId"`)
  const txId = String((result as unknown as { rows: Array<{ txId: unknown }> }).rows[0]!.txId)
  const rows = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.workspaceId, workspaceId), sql`${webhookEvents.txId} >= ${txId}::xid8`))
  return { cursor: { txId, position: 0 }, committed: rows.map((r) => r.id) }
}

/** Where the workspace's event `eventId` stands in its stream, and when it was written; null when unknown. */
export async function findStreamEvent(
  db: DbOrTx,
  workspaceId: string,
  eventId: string,
): Promise<(StreamCursor & { createdAt: Date }) | null> {
  const [row] = await db
    .select({
      txId: sql<string>`${webhookEvents.txId}::text`,
      position: webhookEvents.position,
      createdAt: webhookEvents.createdAt,
    })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.workspaceId, workspaceId)))
  return row ? { txId: row.txId, position: Number(row.position), createdAt: row.createdAt } : null
}

/** The workspace's events after `after`, in stream order, up to the horizon (index webhook_events_stream_idx). */
export async function selectStreamEvents(
  db: DbOrTx,
  page: { workspaceId: string; after: StreamCursor; types: readonly StoredEventType[] | null; limit: number },
): Promise<StreamEventRow[]> {
  const rows = await db
    .select({
      id: webhookEvents.id,
      txId: sql<string>`${webhookEvents.txId}::text`,
      position: webhookEvents.position,
      payload: webhookEvents.payload,
    })
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.workspaceId, page.workspaceId),
        sql`(${webhookEvents.txId}, ${webhookEvents.position}) > (${page.after.txId}::xid8, ${page.after.position})`,
        sql`${webhookEvents.txId} < ${horizon}`,
        page.types ? inArray(webhookEvents.type, [...page.types]) : undefined,
      ),
    )
    .orderBy(asc(webhookEvents.txId), asc(webhookEvents.position))
    .limit(page.limit)
  return rows.map((r) => ({ ...r, position: Number(r.position) }))
}

/**
 * Takes a stream slot of the workspace unless `cap` unexpired ones are held (expired ones are
 * removed first); answers whether it did.
 */
export async function claimStreamSlot(
  db: DbOrTx,
  slot: { id: string; workspaceId: string; expiresAt: Date; now: Date; cap: number },
): Promise<boolean> {
  await db
    .delete(eventStreams)
    .where(and(eq(eventStreams.workspaceId, slot.workspaceId), lte(eventStreams.expiresAt, slot.now)))
  const held = db
    .select({ n: sql`count(*)` })
    .from(eventStreams)
    .where(and(eq(eventStreams.workspaceId, slot.workspaceId), gte(eventStreams.expiresAt, slot.now)))
  const inserted = await db.execute(sql`insert into ${eventStreams} (id, workspace_id, expires_at)
    select ${slot.id}, ${slot.workspaceId}, ${slot.expiresAt.toISOString()}::timestamptz
    where (${held}) < ${slot.cap} returning id`)
  return (inserted as unknown as { rows: unknown[] }).rows.length === 1
}

export async function releaseStreamSlot(db: DbOrTx, id: string): Promise<void> {
  await db.delete(eventStreams).where(eq(eventStreams.id, id))
}
