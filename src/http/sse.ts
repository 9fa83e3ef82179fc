/**
 * Server-Sent Events as `GET /v1/events/stream` writes them (docs/webhooks.md): one message per
 * event (`id`, `event`, `data` on one line), comment heartbeats, the reconnection delay first.
 */
import type { WebhookPayload } from '../domain/webhooks/events'

/** One event: its id (the client's `Last-Event-ID` on reconnecting), its type, the delivery body. */
export const sseEvent = (payload: WebhookPayload): string =>
  `id: ${payload.id}\nevent: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`

/** A message with no id (the client's last event id stays the one it had). */
export const sseNotice = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

export const sseRetry = (ms: number): string => `retry: ${ms}\n\n`

export const SSE_HEARTBEAT = ': heartbeat\n\n'

/** Waits `ms`, or less when `signal` aborts first. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done)
  })
}
