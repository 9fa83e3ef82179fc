import { CliError } from '../args'
import { exitCodeOfStatus } from '../exit-codes'
import { apiErrorMessage, type ApiClient } from './client'

/** One Server-Sent Events message. */
export interface SseMessage {
  id?: string
  event: string
  data: string
}

/**
 * The Server-Sent Events text format, fed in chunks: `field: value` lines, a blank line ends a
 * message, `:` lines are comments (heartbeats), `retry:` changes the reconnection delay.
 */
export class SseParser {
  private buffer = ''
  private data: string[] = []
  private event = ''
  private id: string | undefined
  constructor(
    private readonly onMessage: (message: SseMessage) => void,
    private readonly onRetry: (ms: number) => void = () => {},
  ) {}

  push(chunk: string): void {
    this.buffer += chunk
    const lines = this.buffer.split(/\r\n|\r|\n/)
    this.buffer = lines.pop() ?? ''
    for (const line of lines) this.line(line)
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch()
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'data') this.data.push(value)
    else if (field === 'event') this.event = value
    else if (field === 'id' && !value.includes('\0')) this.id = value
    else if (field === 'retry' && /^\d+$/.test(value)) this.onRetry(Number(value))
  }

  private dispatch(): void {
    if (this.data.length > 0)
      this.onMessage({
        ...(this.id !== undefined ? { id: this.id } : {}),
        event: this.event || 'message',
        data: this.data.join('\n'),
      })
    this.data = []
    this.event = ''
  }
}

export interface EventStreamOptions {
  api: ApiClient
  types: string[]
  signal: AbortSignal
  /** Each event message (not `reset`), with the id to resume after. */
  onEvent(message: SseMessage): Promise<void> | void
  /** Connected, dropped, reset: a line for stderr. */
  onNotice(line: string): void
  /** Longest wait between reconnections (ms); default 30 s. */
  maxBackoffMs?: number
}

/** How long a connection may stay silent (no answer, no heartbeat) before it is taken for dead. */
const IDLE_MS = 45_000

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    const stop = () => {
      clearTimeout(timer)
      resolve()
    }
    signal.addEventListener('abort', stop, { once: true })
  })

/**
 * Follows `GET /v1/events/stream` until `signal` aborts: after a drop or a 5xx it reconnects with
 * `Last-Event-ID` (the last event seen), waiting the server's `retry:` delay, doubled after each
 * failed attempt up to `maxBackoffMs`. A 401/403/404/4xx ends it with a CliError of its exit code.
 */
export async function followEvents(options: EventStreamOptions): Promise<void> {
  const { api, signal } = options
  const state: { lastEventId?: string } = {}
  let retryMs = 2000
  let failures = 0
  while (!signal.aborted) {
    let connected = false
    const lastEventId = state.lastEventId
    const connection = new AbortController()
    const leave = () => connection.abort()
    signal.addEventListener('abort', leave, { once: true })
    const headersDue = setTimeout(() => connection.abort(new Error(`no answer within ${IDLE_MS / 1000} s`)), IDLE_MS)
    try {
      const res = await api.open('/v1/events/stream', {
        query: { types: options.types.length > 0 ? options.types.join(',') : undefined },
        headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
        signal: connection.signal,
      })
      clearTimeout(headersDue)
      if (res.status >= 400 && res.status < 500)
        throw new CliError(apiErrorMessage(res.status, await res.text()), exitCodeOfStatus(res.status))
      if (!res.ok || !res.body) throw new Error(`the server answered ${res.status}`)
      connected = true
      failures = 0
      options.onNotice(lastEventId ? `connected again, resuming after ${lastEventId}` : `connected to ${api.url}`)
      await read(res.body, { state, options, connection, onRetry: (ms) => (retryMs = ms) })
      if (!signal.aborted) options.onNotice('the server closed the stream')
    } catch (err) {
      if (signal.aborted) return
      if (err instanceof CliError && err.exitCode !== 5) throw err
      failures += 1
      const why = connection.signal.reason instanceof Error ? connection.signal.reason : (err as Error)
      options.onNotice(`${connected ? 'stream dropped' : 'cannot connect'}: ${why.message.split('\n')[0]}`)
    } finally {
      clearTimeout(headersDue)
      signal.removeEventListener('abort', leave)
    }
    if (signal.aborted) return
    const wait = Math.min(options.maxBackoffMs ?? 30_000, retryMs * 2 ** Math.max(0, failures - 1))
    options.onNotice(`reconnecting in ${(wait / 1000).toFixed(1)} s`)
    await sleep(wait, signal)
  }
}

/**
 * Reads one connection's messages until it ends, keeping the last event id seen in `state`. A
 * connection silent for IDLE_MS (the server sends a heartbeat every 15 s) is taken for dead and
 * aborted, so a half-open connection does not hang the CLI.
 */
async function read(
  body: ReadableStream<Uint8Array>,
  io: {
    state: { lastEventId?: string }
    options: EventStreamOptions
    connection: AbortController
    onRetry: (ms: number) => void
  },
): Promise<void> {
  const { state, options, connection } = io
  const queue: SseMessage[] = []
  const parser = new SseParser((m) => queue.push(m), io.onRetry)
  const decoder = new TextDecoder()
  const reader = body.getReader()
  const silent = () => connection.abort(new Error(`nothing received for ${IDLE_MS / 1000} s`))
  let idle = setTimeout(silent, IDLE_MS)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      clearTimeout(idle)
      if (done) return
      idle = setTimeout(silent, IDLE_MS)
      parser.push(decoder.decode(value, { stream: true }))
      await dispatch(queue.splice(0), state, options)
    }
  } finally {
    clearTimeout(idle)
  }
}

/** Hands each event on, in order, and notes its id; a `reset` is told on stderr. */
async function dispatch(
  messages: SseMessage[],
  state: { lastEventId?: string },
  options: EventStreamOptions,
): Promise<void> {
  for (const message of messages) {
    if (message.event === 'reset') {
      options.onNotice(
        `the server no longer has event ${state.lastEventId ?? '?'}; events may be missed (${message.data})`,
      )
      continue
    }
    await options.onEvent(message)
    if (message.id) state.lastEventId = message.id
  }
}
