/**
 * Server-Sent Events text (the `text/event-stream` format): messages with an optional `id` and
 * `event` and one line of `data`, comments, the reconnection delay.
 */

/** One message; `data` is written as one line of JSON. Without `id`, the client's last event id stays as it was. */
export function sseMessage(message: { id?: string; event: string; data: unknown }): string {
  const id = message.id === undefined ? '' : `id: ${oneLine(message.id)}\n`
  return `${id}event: ${oneLine(message.event)}\ndata: ${JSON.stringify(message.data)}\n\n`
}

/** A comment line: ignored by clients, it keeps proxies from closing a quiet connection. */
export const sseComment = (text: string): string => `: ${oneLine(text)}\n\n`

export const sseRetry = (ms: number): string => `retry: ${Math.round(ms)}\n\n`

const oneLine = (text: string) => text.replace(/[\r\n]/g, ' ')

/** Waits `ms`, or less when `signal` aborts first. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, Math.max(0, ms))
    signal.addEventListener('abort', done)
  })
}
