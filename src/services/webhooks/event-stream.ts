/**
 * The workspace's events as they are committed (`GET /v1/events/stream`, docs/webhooks.md). A
 * stream starts after the client's last event (every later one is sent again first), or from now;
 * it reads the events in stream order (db/queries/event-stream.ts) a page at a time, and holds one
 * of the workspace's stream slots until it is closed.
 */
import {
  claimStreamSlot,
  findStreamEvent,
  releaseStreamSlot,
  type StreamCursor,
  selectStreamEvents,
  selectStreamStart,
} from '../../db/queries/event-stream'
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import type { EventStreamPolicy } from '../../domain/webhooks/event-stream'
import type { StoredEventType, WebhookPayload } from '../../domain/webhooks/events'
import { EVENT_RETENTION_DAYS, EVENT_RETENTION_MS } from '../../domain/webhooks/policy'
import { newId } from '../../lib/ids'
import { pause, sseComment, sseMessage, sseRetry } from '../../lib/sse'
import { describeError } from '../../infra/logger'

/** Why a stream asked to resume does not: the client's last event is unknown here, or too old. */
export interface StreamReset {
  reason: 'unknown_event' | 'expired'
  message: string
}

export interface EventStream {
  /** Set when the stream could not resume after the client's last event: it starts from now. */
  readonly reset: StreamReset | null
  /** When the stream ends (its lifetime). */
  readonly endsAt: Date
  /** The events committed since the last call, in stream order (none when there are none). */
  next(): Promise<WebhookPayload[]>
  /** Gives the slot back; the stream reads nothing more. */
  close(): Promise<void>
}

type StreamDeps = Pick<Deps, 'db' | 'clock'>

const PAGE = 100

async function startingPoint(
  deps: StreamDeps,
  workspaceId: string,
  lastEventId: string | undefined,
): Promise<{ cursor: StreamCursor; committed: Set<string>; reset: StreamReset | null }> {
  let reset: StreamReset | null = null
  if (lastEventId !== undefined) {
    const last = await findStreamEvent(deps.db, workspaceId, lastEventId)
    const expired = last !== null && last.createdAt.getTime() < deps.clock.now().getTime() - EVENT_RETENTION_MS
    if (last && !expired) return { cursor: last, committed: new Set(), reset: null }
    reset = expired
      ? {
          reason: 'expired',
          message: `The last event is older than the ${EVENT_RETENTION_DAYS} days events are kept; streaming from now.`,
        }
      : { reason: 'unknown_event', message: "The last event is not one of this workspace's; streaming from now." }
  }
  const now = await selectStreamStart(deps.db, workspaceId)
  return { cursor: now.cursor, committed: new Set(now.committed), reset }
}

/**
 * Opens a stream of the workspace's events (of `types` only, when given): 429 `rate_limited` when
 * the workspace holds `policy.maxPerWorkspace` streams already.
 */
export async function openEventStream(
  deps: StreamDeps,
  workspaceId: string,
  options: { types: StoredEventType[] | null; lastEventId: string | undefined; policy: EventStreamPolicy },
): Promise<EventStream> {
  const { policy, types } = options
  let { cursor, committed, reset } = await startingPoint(deps, workspaceId, options.lastEventId)
  const now = deps.clock.now()
  const endsAt = new Date(now.getTime() + policy.lifetimeMs)
  const slotId = newId('eventStream')
  // The slot outlives the stream by a minute: a process that vanishes without closing frees it then.
  const slot = { id: slotId, workspaceId, now, expiresAt: new Date(endsAt.getTime() + 60_000) }
  if (!(await claimStreamSlot(deps.db, { ...slot, cap: policy.maxPerWorkspace })))
    throw new AppError(
      'rate_limited',
      `This workspace has ${policy.maxPerWorkspace} event streams open already; close one or retry later.`,
      { retryAfterSec: Math.ceil(policy.retryMs / 1000) },
    )
  let closed = false
  return {
    reset,
    endsAt,
    async next() {
      const sent: WebhookPayload[] = []
      for (;;) {
        if (closed) return sent
        const rows = await selectStreamEvents(deps.db, { workspaceId, after: cursor, types, limit: PAGE })
        for (const row of rows) {
          cursor = { txId: row.txId, position: row.position }
          if (!committed.delete(row.id)) sent.push(row.payload)
        }
        if (rows.length < PAGE) return sent
      }
    },
    async close() {
      if (closed) return
      closed = true
      committed = new Set()
      await releaseStreamSlot(deps.db, slotId)
    },
  }
}

/**
 * Writes an open stream as Server-Sent Events until its lifetime ends or `signal` aborts (the
 * client left): `retry:` first, a `reset` notice when it could not resume, each event as one
 * message, a heartbeat comment when quiet. Never throws: a failure ends the stream (logged), the
 * client reconnects with its last event id and loses nothing. Gives the slot back at the end.
 */
export async function pumpEventStream(
  deps: Pick<Deps, 'logger'>,
  stream: EventStream,
  sink: { write(text: string): Promise<unknown>; signal: AbortSignal; policy: EventStreamPolicy },
): Promise<void> {
  const { policy, signal } = sink
  try {
    await sink.write(sseRetry(policy.retryMs))
    if (stream.reset) await sink.write(sseMessage({ event: 'reset', data: stream.reset }))
    const endsAt = Date.now() + policy.lifetimeMs
    let heartbeatAt = Date.now() + policy.heartbeatMs
    while (!signal.aborted && Date.now() < endsAt) {
      for (const event of await stream.next())
        await sink.write(sseMessage({ id: event.id, event: event.type, data: event }))
      if (Date.now() >= heartbeatAt) {
        await sink.write(sseComment('heartbeat'))
        heartbeatAt = Date.now() + policy.heartbeatMs
      }
      await pause(Math.min(policy.pollMs, heartbeatAt - Date.now(), endsAt - Date.now()), signal)
    }
  } catch (err) {
    if (!signal.aborted) deps.logger.warn('event_stream_failed', describeError(err))
  } finally {
    await stream.close().catch((err) => deps.logger.warn('event_stream_release_failed', describeError(err)))
  }
}
