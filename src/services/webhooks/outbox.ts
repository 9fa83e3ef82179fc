/**
 * The one way an event is written (docs/webhooks.md): `recordEvent` runs inside the transaction of
 * the change it reports, inserting the event and one outbox row per subscribed, enabled endpoint.
 * A rolled-back change takes its event and rows with it; a committed one leaves rows the worker
 * (right after the commit, `sendOutbox`) or the every-minute sweep will send.
 */
import {
  type EnabledEndpoint,
  selectEnabledEndpointEvents,
  selectSubscribedEndpointIds,
} from '../../db/queries/webhook-endpoints'
import { insertDeliveryRows, insertEventRow, insertEventRows } from '../../db/queries/webhook-outbox'
import type { DbOrTx } from '../../db/types'
import type { Deps } from '../../deps'
import type { StoredEventType, WebhookPayload } from '../../domain/webhooks/events'
import { describeError } from '../../infra/logger'
import type { WebhookDue } from '../../infra/webhook-queue/types'
import { newId } from '../../lib/ids'

/** What a transaction wrote to the outbox, to hand to the queue once it has committed. */
export interface Outbox {
  readonly due: WebhookDue[]
}

export const newOutbox = (): Outbox => ({ due: [] })

export interface NewEvent {
  workspaceId: string
  type: StoredEventType
  data: Record<string, unknown>
  now: Date
  /** Only these endpoints (a test ping); default every enabled endpoint subscribed to the type. */
  endpointIds?: string[]
}

/** Inserts the event and its outbox rows in `tx`; answers the event id. */
export async function recordEvent(tx: DbOrTx, outbox: Outbox | null, event: NewEvent): Promise<string> {
  const id = newId('webhookEvent')
  const payload: WebhookPayload = {
    id,
    type: event.type,
    createdAt: event.now.toISOString(),
    workspaceId: event.workspaceId,
    data: event.data,
  }
  await insertEventRow(tx, { id, workspaceId: event.workspaceId, type: event.type, payload, createdAt: event.now })
  const endpointIds = event.endpointIds ?? (await selectSubscribedEndpointIds(tx, event.workspaceId, event.type))
  await enqueueDeliveries(
    tx,
    outbox,
    { eventId: id, workspaceId: event.workspaceId, type: event.type },
    endpointIds,
    event.now,
  )
  return id
}

/**
 * `recordEvent` for several events of one workspace, in three statements whatever their number: one
 * read of the workspace's enabled endpoints and their subscriptions (none when the caller read them
 * earlier in the transaction: `endpoints`), one insert of the events (in order), one of all their
 * outbox rows. Answers the events' ids.
 */
export async function recordEvents(
  tx: DbOrTx,
  outbox: Outbox | null,
  workspaceId: string,
  events: Array<Omit<NewEvent, 'workspaceId' | 'endpointIds'>>,
  endpointsRead?: EnabledEndpoint[],
): Promise<string[]> {
  if (events.length === 0) return []
  const endpoints = endpointsRead ?? (await selectEnabledEndpointEvents(tx, workspaceId))
  const stored = events.map((event) => {
    const id = newId('webhookEvent')
    const payload: WebhookPayload = {
      id,
      type: event.type,
      createdAt: event.now.toISOString(),
      workspaceId,
      data: event.data,
    }
    return { id, workspaceId, type: event.type, payload, createdAt: event.now }
  })
  await insertEventRows(tx, stored)
  const rows = stored.flatMap((event, i) =>
    endpoints
      .filter((endpoint) => endpoint.events.includes(event.type))
      .map((endpoint) =>
        deliveryRow({ eventId: event.id, workspaceId, type: event.type }, endpoint.id, events[i]!.now),
      ),
  )
  await insertDeliveryRows(tx, rows)
  outbox?.due.push(...rows.map((r) => ({ deliveryId: r.id, endpointId: r.endpointId, notBefore: r.nextAttemptAt })))
  return stored.map((e) => e.id)
}

type EventRef = { eventId: string; workspaceId: string; type: StoredEventType }

const deliveryRow = (event: EventRef, endpointId: string, now: Date) => ({
  id: newId('webhookDelivery'),
  workspaceId: event.workspaceId,
  eventId: event.eventId,
  endpointId,
  eventType: event.type,
  status: 'PENDING' as const,
  nextAttemptAt: now,
  createdAt: now,
  updatedAt: now,
})

/** Outbox rows for an existing event (its first sending, or a replay), due now. */
export async function enqueueDeliveries(
  tx: DbOrTx,
  outbox: Outbox | null,
  event: EventRef,
  endpointIds: string[],
  now: Date,
): Promise<string[]> {
  const rows = endpointIds.map((endpointId) => deliveryRow(event, endpointId, now))
  await insertDeliveryRows(tx, rows)
  outbox?.due.push(...rows.map((r) => ({ deliveryId: r.id, endpointId: r.endpointId, notBefore: now })))
  return rows.map((r) => r.id)
}

/**
 * After the commit: hands the outbox rows to the queue. Never throws: what cannot be handed over
 * stays due in the outbox and the sweep sends it.
 */
export async function sendOutbox(deps: Pick<Deps, 'webhookQueue' | 'logger'>, outbox: Outbox): Promise<void> {
  if (outbox.due.length === 0) return
  try {
    await deps.webhookQueue.enqueue(outbox.due.splice(0))
  } catch (err) {
    deps.logger.warn('webhook_enqueue_failed', describeError(err))
  }
}
