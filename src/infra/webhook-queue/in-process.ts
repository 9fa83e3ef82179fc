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

/**
 * Node's webhook queue: attempts wait in memory on their due time (a min-heap, one timer), and run
 * with at most `concurrency` at once. The same (delivery, due time) is held once. Nothing is
 * persisted: what waits when the process stops is still due in the outbox, and the sweep sends it.
 */
export function createInProcessWebhookQueue(options: {
  run: (deliveryId: string) => Promise<unknown>
  logger: Logger
  concurrency?: number
  /** The app's clock: an attempt is due when its `notBefore` is not after `clock.now()`. */
  clock: Clock
}): InProcessWebhookQueue {
  const { run, logger, clock } = options
  const now = () => clock.now().getTime()
  const concurrency = options.concurrency ?? 32
  const heap = new MinHeap<Entry>((a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq))
  const held = new Set<string>()
  const inFlight = new Set<Promise<void>>()
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

  function pump(): void {
    timer = undefined
    if (closed) return
    while (inFlight.size < concurrency) {
      const next = heap.peek()
      if (next === undefined || next.at > now()) break
      heap.pop()
      const task: Promise<void> = Promise.resolve()
        .then(() => run(next.item.deliveryId))
        .then(
          () => undefined,
          (err: unknown) =>
            logger.error('webhook_attempt_failed', { deliveryId: next.item.deliveryId, ...describeError(err) }),
        )
        .finally(() => {
          inFlight.delete(task)
          held.delete(next.key)
          pump()
        })
      inFlight.add(task)
    }
    arm()
  }

  return {
    get pending() {
      return heap.size + inFlight.size
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
      await Promise.all([...inFlight])
    },
  }
}
