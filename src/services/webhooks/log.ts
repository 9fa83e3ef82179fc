/**
 * Delivery log, event list, replay and test ping (docs/webhooks.md). Events are listed for 30
 * days; a replay sends a stored event again, as it was, to one endpoint or every subscribed one.
 */
import { selectSubscribedEndpointIds } from '../../db/queries/webhook-endpoints'
import {
  findWorkspaceDelivery,
  hasEndpointDelivery,
  hasWorkspaceEvent,
  selectDeliveryPage,
  selectEventPage,
} from '../../db/queries/webhook-log'
import {
  findWorkspaceEvent,
  selectAttemptsOf,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
} from '../../db/queries/webhook-outbox'
import type { Deps } from '../../deps'
import { AppError, notFound } from '../../domain/errors'
import type {
  StoredEventType,
  WebhookDeliveryStatus,
  WebhookErrorClass,
  WebhookPayload,
} from '../../domain/webhooks/events'
import { EVENT_RETENTION_MS } from '../../domain/webhooks/policy'
import { deliverWebhook } from './deliver'
import { getEndpointRow } from './endpoints'
import { enqueueDeliveries, newOutbox, recordEvent, sendOutbox } from './outbox'

export interface WebhookAttemptRecord {
  attempt: number
  statusCode: number | null
  durationMs: number
  /** The first KiB of the receiver's answer. */
  responseBody: string | null
  errorClass: WebhookErrorClass | null
  createdAt: string
}

export interface WebhookDeliveryRecord {
  id: string
  eventId: string
  endpointId: string
  eventType: StoredEventType
  status: WebhookDeliveryStatus
  attempts: WebhookAttemptRecord[]
  nextAttemptAt: string | null
  deliveredAt: string | null
  createdAt: string
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

function toAttemptRecord(a: WebhookAttemptRow): WebhookAttemptRecord {
  return {
    attempt: a.attempt,
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    responseBody: a.responseBody,
    errorClass: a.errorClass,
    createdAt: a.createdAt.toISOString(),
  }
}

async function toDeliveryRecords(deps: Pick<Deps, 'db'>, rows: WebhookDeliveryRow[]): Promise<WebhookDeliveryRecord[]> {
  const attempts = await selectAttemptsOf(
    deps.db,
    rows.map((r) => r.id),
  )
  return rows.map((r) => ({
    id: r.id,
    eventId: r.eventId,
    endpointId: r.endpointId,
    eventType: r.eventType,
    status: r.status,
    attempts: attempts.filter((a) => a.deliveryId === r.id).map(toAttemptRecord),
    nextAttemptAt: r.status === 'PENDING' ? iso(r.nextAttemptAt) : null,
    deliveredAt: iso(r.deliveredAt),
    createdAt: r.createdAt.toISOString(),
  }))
}

const badCursor = () =>
  new AppError('invalid_request', 'The cursor is not one this list gave; start again without it.', {
    details: [{ path: 'query.cursor', message: 'unknown cursor' }],
  })

export interface Page<T> {
  data: T[]
  nextCursor: string | null
}

export async function listDeliveries(
  deps: Pick<Deps, 'db'>,
  workspaceId: string,
  endpointId: string,
  query: {
    status?: WebhookDeliveryStatus | undefined
    eventType?: StoredEventType | undefined
    cursor?: string | undefined
    limit: number
  },
): Promise<Page<WebhookDeliveryRecord>> {
  await getEndpointRow(deps, workspaceId, endpointId)
  if (query.cursor !== undefined && !(await hasEndpointDelivery(deps.db, endpointId, query.cursor))) throw badCursor()
  const rows = await selectDeliveryPage(deps.db, {
    workspaceId,
    endpointId,
    status: query.status,
    eventType: query.eventType,
    afterId: query.cursor,
    limit: query.limit + 1,
  })
  const data = await toDeliveryRecords(deps, rows.slice(0, query.limit))
  return { data, nextCursor: rows.length > query.limit ? data[data.length - 1]!.id : null }
}

export async function listEvents(
  deps: Pick<Deps, 'db' | 'clock'>,
  workspaceId: string,
  query: { type?: StoredEventType | undefined; cursor?: string | undefined; limit: number },
): Promise<Page<WebhookPayload>> {
  if (query.cursor !== undefined && !(await hasWorkspaceEvent(deps.db, workspaceId, query.cursor))) throw badCursor()
  const since = new Date(deps.clock.now().getTime() - EVENT_RETENTION_MS)
  const rows = await selectEventPage(deps.db, {
    workspaceId,
    since,
    type: query.type,
    afterId: query.cursor,
    limit: query.limit + 1,
  })
  const data = rows.slice(0, query.limit).map((r) => r.payload)
  return { data, nextCursor: rows.length > query.limit ? data[data.length - 1]!.id : null }
}

type ReplayDeps = Pick<Deps, 'db' | 'clock' | 'webhookQueue' | 'logger'>

/**
 * Sends a stored event again: to `endpointId` (any endpoint of the workspace, enabled) or to every
 * enabled endpoint subscribed to its type. Answers the new deliveries.
 */
export async function replayEvent(
  deps: ReplayDeps,
  workspaceId: string,
  eventId: string,
  target: { endpointId?: string | undefined },
): Promise<{ eventId: string; deliveryIds: string[] }> {
  const event = await findWorkspaceEvent(deps.db, workspaceId, eventId)
  if (!event || event.createdAt.getTime() < deps.clock.now().getTime() - EVENT_RETENTION_MS) throw notFound('Event')
  let endpointIds: string[]
  if (target.endpointId !== undefined) {
    const endpoint = await getEndpointRow(deps, workspaceId, target.endpointId).catch(() => null)
    if (!endpoint)
      throw new AppError('not_found', 'Webhook endpoint not found.', {
        details: [{ path: 'endpointId', message: 'unknown endpoint' }],
      })
    if (!endpoint.enabled)
      throw new AppError('invalid_request', 'The endpoint is disabled; enable it before replaying to it.', {
        details: [{ path: 'endpointId', message: 'endpoint disabled' }],
      })
    endpointIds = [endpoint.id]
  } else {
    endpointIds = await selectSubscribedEndpointIds(deps.db, workspaceId, event.type)
  }
  const outbox = newOutbox()
  const deliveryIds = await deps.db.transaction((tx) =>
    enqueueDeliveries(tx, outbox, { eventId, workspaceId, type: event.type }, endpointIds, deps.clock.now()),
  )
  await sendOutbox(deps, outbox)
  return { eventId, deliveryIds }
}

/**
 * `ping` to one endpoint, attempted within the request: answers the delivery with its attempt.
 * A failed ping is retried like any delivery.
 */
export async function sendTestPing(
  deps: Parameters<typeof deliverWebhook>[0],
  workspaceId: string,
  endpointId: string,
): Promise<WebhookDeliveryRecord> {
  const endpoint = await getEndpointRow(deps, workspaceId, endpointId)
  const outbox = newOutbox()
  await deps.db.transaction((tx) =>
    recordEvent(tx, outbox, {
      workspaceId,
      type: 'ping',
      data: { endpointId: endpoint.id, url: endpoint.url },
      now: deps.clock.now(),
      endpointIds: [endpoint.id],
    }),
  )
  const deliveryId = outbox.due[0]!.deliveryId
  await deliverWebhook(deps, deliveryId)
  // Read back by id: other deliveries to the endpoint may have been written meanwhile.
  const row = await findWorkspaceDelivery(deps.db, workspaceId, deliveryId)
  if (!row) throw notFound('Webhook endpoint')
  const [record] = await toDeliveryRecords(deps, [row])
  return record!
}
