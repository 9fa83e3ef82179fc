import type { Clock } from '../clock'
import { describeError, type Logger } from '../logger'
import { MinHeap } from '../publish-queue/min-heap'
import { webhookDueId, type WebhookDue, type WebhookQueue } from './types'

export interface InProcessWebhookQueue extends WebhookQueue {
  /** Attempts waiting for their time or a free slot, and running. */
  readonly pending: number
  /** Stops the timer, drops what waits (the sweep finds it again) and waits for the runs in flight. */
  close(): Promise<void>
}

interface Entry {
  item: WebhookDue
  at: number
  seq: number
  key: string
}

const MAX_TIMER_MS = 2_147_483_647

export interface InProcessWebhookQueueOptions {
  /** One attempt. */
  run: (deliveryId: string) => Promise<unknown>
  /** Several attempts claimed together, when given: one promise per id, in order, each holding its slot. */
  runBatch?: (deliveryIds: string[]) => Array<Promise<unknown>>
  /** Most ids handed to `runBatch` at once (default 100). */
  batchSize?: number
  logger: Logger
  /** Attempts running at once (default 32; 256 with `runBatch`). */
  concurrency?: number
  /** Attempts to one endpoint running at once (default: a quarter of `concurrency`), for those whose endpoint is known. */
  perEndpoint?: number
  /** The app's clock: an attempt is due when its `notBefore` is not after `clock.now()`. */
  clock: Clock
}

/**
 * Node's webhook queue: attempts wait in memory on their due time (a min-heap, one timer), and run
 * with at most `concurrency` at once, and at most `perEndpoint` to one endpoint: the attempts of an
 * endpoint at its bound wait aside, so a slow endpoint takes only its share of the slots. Due
 * attempts are handed to `runBatch` together when it is given. The same (delivery, due time) is held
 * once. Nothing is persisted: what waits when the process stops is still due in the outbox, and the
 * sweep sends it.
 */
export function createInProcessWebhookQueue(options: InProcessWebhookQueueOptions): InProcessWebhookQueue {
  const { run, runBatch, logger, clock } = options
  const now = () => clock.now().getTime()
  const concurrency = options.concurrency ?? (runBatch ? 256 : 32)
  const batchSize = runBatch ? (options.batchSize ?? 100) : 1
  const perEndpoint = options.perEndpoint ?? Math.max(1, Math.floor(concurrency / 4))
  const heap = new MinHeap<Entry>((a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq))
  const held = new Set<string>()
  const inFlight = new Set<Promise<void>>()
  /** Running attempts per endpoint, and the due ones waiting for it. */
  const running = new Map<string, number>()
  const aside = new Map<string, Entry[]>()
  let seq = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false

  const arm = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const next = heap.peek()
    if (closed || next === undefined || inFlight.size >= concurrency) return
    timer = setTimeout(pump, Math.min(Math.max(0, next.at - now()), MAX_TIMER_MS))
    ;(timer as { unref?: () => unknown }).unref?.()
  }

  const finished = (entry: Entry) => {
    held.delete(entry.key)
    const endpoint = entry.item.endpointId
    if (endpoint === undefined) return
    const left = (running.get(endpoint) ?? 1) - 1
    if (left > 0) running.set(endpoint, left)
    else running.delete(endpoint)
    const waiting = aside.get(endpoint)
    if (waiting?.length) heap.push(waiting.shift()!)
    if (waiting?.length === 0) aside.delete(endpoint)
  }

  const start = (entry: Entry, attempt: () => Promise<unknown>) => {
    const task: Promise<void> = Promise.resolve()
      .then(attempt)
      .then(
        () => undefined,
        (err: unknown) =>
          logger.error('webhook_attempt_failed', { deliveryId: entry.item.deliveryId, ...describeError(err) }),
      )
      .finally(() => {
        inFlight.delete(task)
        finished(entry)
        pump()
      })
    inFlight.add(task)
  }

  /** The next due entry whose endpoint has room; one at its bound waits aside. */
  const nextDue = (time: number): Entry | undefined => {
    for (let next = heap.peek(); next !== undefined && next.at <= time; next = heap.peek()) {
      heap.pop()
      const endpoint = next.item.endpointId
      if (endpoint === undefined) return next
      const count = running.get(endpoint) ?? 0
      if (count < perEndpoint) {
        running.set(endpoint, count + 1)
        return next
      }
      aside.set(endpoint, [...(aside.get(endpoint) ?? []), next])
    }
    return undefined
  }

  function pump(): void {
    timer = undefined
    if (closed) return
    const time = now()
    while (inFlight.size < concurrency) {
      const due: Entry[] = []
      const room = Math.min(concurrency - inFlight.size, batchSize)
      for (let e = due.length < room ? nextDue(time) : undefined; e; e = due.length < room ? nextDue(time) : undefined)
        due.push(e)
      if (due.length === 0) break
      if (!runBatch) start(due[0]!, () => run(due[0]!.item.deliveryId))
      else {
        const runs = Promise.resolve().then(() => runBatch(due.map((e) => e.item.deliveryId)))
        due.forEach((entry, i) => start(entry, () => runs.then((all) => all[i])))
      }
    }
    arm()
  }

  return {
    get pending() {
      let waitingAside = 0
      for (const list of aside.values()) waitingAside += list.length
      return heap.size + inFlight.size + waitingAside
    },
    async enqueue(items) {
      if (closed) return
      for (const item of items) {
        const key = webhookDueId(item)
        if (held.has(key)) continue
        held.add(key)
        heap.push({ item, at: item.notBefore.getTime(), seq: seq++, key })
      }
      pump()
    },
    async close() {
      closed = true
      if (timer !== undefined) clearTimeout(timer)
      for (const entry of heap.drain()) held.delete(entry.key)
      for (const list of aside.values()) for (const entry of list) held.delete(entry.key)
      aside.clear()
      await Promise.all([...inFlight])
    },
  }
}
