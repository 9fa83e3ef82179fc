import { sql } from 'drizzle-orm'
import { bigserial, boolean, customType, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import type {
  StoredEventType,
  WebhookDeliveryStatus,
  WebhookErrorClass,
  WebhookEventType,
  WebhookPayload,
} from '../../domain/webhooks/events'
import { ts, workspaces } from './workspaces'

/**
 * A receiver of the workspace's events. `secret` (and `previousSecret` during a rotation) is
 * sealed by the credential cipher, bound to the endpoint id; never returned after creation.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    events: jsonb('events').$type<WebhookEventType[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why it was disabled by the service (five days of failures); null when enabled or disabled by hand. */
    disabledReason: text('disabled_reason'),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    /** The first failed attempt since the last success; null while it succeeds. */
    failingSince: ts('failing_since'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_workspace_idx').on(t.workspaceId, t.createdAt)],
)

/** A PostgreSQL `xid8` (a transaction id that never wraps), read as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' })

/**
 * What happened, as delivered: the payload is stored as sent, so a replay sends the same event.
 * `txId` (the writing transaction's id) and `position` (insertion order) are the event stream's
 * order (db/queries/event-stream.ts); both are the table's defaults, never written by the app.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text('type').$type<StoredEventType>().notNull(),
    payload: jsonb('payload').$type<WebhookPayload>().notNull(),
    createdAt: ts('created_at').notNull(),
    txId: xid8('tx_id').notNull().default(sql`pg_current_xact_id()`),
    position: bigserial('position', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('webhook_events_workspace_idx').on(t.workspaceId, t.createdAt),
    index('webhook_events_stream_idx').on(t.workspaceId, t.txId, t.position),
  ],
)

/** The outbox: one row per (event, endpoint), written with the event; the worker and the sweep send it. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventType: text('event_type').$type<StoredEventType>().notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due (PENDING), or until when the running one holds it. */
    nextAttemptAt: ts('next_attempt_at'),
    deliveredAt: ts('delivered_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
)

/** One row per attempt: what the receiver answered (its first KiB) or how the attempt failed. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    responseBody: text('response_body'),
    errorClass: text('error_class').$type<WebhookErrorClass>(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
)

/**
 * The open event streams (`GET /v1/events/stream`), one row each, counted against a workspace's cap
 * whatever process or isolate serves them; a row outlives a vanished process by at most the
 * stream's lifetime (`expiresAt`).
 */
export const eventStreams = pgTable(
  'event_streams',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('event_streams_workspace_idx').on(t.workspaceId, t.expiresAt)],
)
