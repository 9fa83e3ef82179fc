/**
 * The rules of the event stream (`GET /v1/events/stream`, docs/webhooks.md): how long one lasts,
 * how often it looks for events and says it is alive, how many a workspace may hold open, and
 * which event types a `types` filter may name.
 */
import { AppError } from '../errors'
import { type StoredEventType, WEBHOOK_EVENT_TYPES } from './events'

export interface EventStreamPolicy {
  /** A comment line this often, so proxies and clients see the connection alive. */
  heartbeatMs: number
  /** New events are looked for this often. */
  pollMs: number
  /** A stream ends after this long; the client reconnects with `Last-Event-ID` and loses nothing. */
  lifetimeMs: number
  /** Streams one workspace may hold open at once. */
  maxPerWorkspace: number
  /** The client's reconnection delay, sent first (`retry:`). */
  retryMs: number
}

export const DEFAULT_EVENT_STREAM_POLICY: EventStreamPolicy = {
  heartbeatMs: 15_000,
  pollMs: 750,
  lifetimeMs: 10 * 60_000,
  maxPerWorkspace: 5,
  retryMs: 2_000,
}

export const eventStreamPolicy = (overrides?: Partial<EventStreamPolicy>): EventStreamPolicy => ({
  ...DEFAULT_EVENT_STREAM_POLICY,
  ...overrides,
})

const STREAMABLE: readonly StoredEventType[] = [...WEBHOOK_EVENT_TYPES, 'ping']

/** The `types` filter (comma-separated): null for every type; an unknown one is 422 `invalid_option`. */
export function parseStreamTypes(text: string | undefined): StoredEventType[] | null {
  if (text === undefined || text.trim() === '') return null
  const names = [...new Set(text.split(',').map((name) => name.trim()))].filter((name) => name !== '')
  const unknown = names.filter((name) => !STREAMABLE.includes(name as StoredEventType))
  if (unknown.length > 0)
    throw new AppError(
      'invalid_option',
      `Unknown event type: ${unknown.join(', ')}. Known: ${STREAMABLE.join(', ')}.`,
      {
        details: unknown.map((name) => ({ path: 'query.types', message: `unknown event type ${name}` })),
      },
    )
  return names as StoredEventType[]
}
