import type { Clock } from '../clock'
import { describeError, type Logger } from '../logger'
import { MinHeap } from './min-heap'
import { deliveryId, type Delivery, type PublishQueue } from './types'

export interface InProcessPublishQueueOptions {
  /** What a due delivery does: `publishTarget(deps, delivery)` in the Node runtime. */
  run: (delivery: Delivery) => Promise<unknown>
  /**
   * What due deliveries do together, when given (the engine's batch claim): one promise per
   * delivery, in order, each holding its slot until it settles. Batches take at most `batchSize`.
   */
  runBatch?: (deliveries: Delivery[]) => Array<Promise<unknown>>
  /** Most deliveries handed to `runBatch` at once (default: `concurrency`). */
  batchSize?: number
  /** The app's clock: a delivery is due when its `notBefore` is not after `clock.now()`. */
  clock: Clock
  /** Most deliveries running at once (default 256). */
  concurrency?: number
  logger: Logger
}

/** The Node runtime's queue; `close()` stops the timer and waits for the runs in flight. */
export interface InProcessPublishQueue extends PublishQueue {
  /** Deliveries held for their time or for a free slot. */
  readonly waiting: number
  /** Deliveries running now. */
  readonly running: number
  close(): Promise<void>
}

export const DEFAULT_PUBLISH_CONCURRENCY = 256
/** setTimeout's largest delay (about 24.8 days); a later delivery re-arms when it fires. */
const MAX_TIMER_MS = 2_147_483_647

interface Entry {
  delivery: Delivery
  at: number
  seq: number
  key: string
}

/** A pending timer must not keep the process alive on its own (the HTTP server does). */
function unref(timer: unknown): void {
  ;(timer as { unref?: () => unknown }).unref?.()
}

/**
 * Delayed delivery inside the process (`npm start`): deliveries wait in memory in a min-heap on
 * `notBefore` (ties in arrival order), one timer is armed for the earliest, and due deliveries run
 * with at most `concurrency` at once. A delivery never runs before its time; a run that throws is
 * logged (ids and error class only) and the queue goes on. A delivery already waiting or running
 * under the same id (target, version, attempt) is not added twice, as QStash de-duplicates.
 *
 * Nothing is persisted: deliveries held when the process stops are found again by the engine's sweep.
 */
export function createInProcessPublishQueue(options: InProcessPublishQueueOptions): InProcessPublishQueue {
  const { run, logger, clock } = options
  const now = () => clock.now().getTime()
  const concurrency = options.concurrency ?? DEFAULT_PUBLISH_CONCURRENCY
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer')
  const runBatch = options.runBatch
  const batchSize = Math.min(options.batchSize ?? concurrency, concurrency)
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer')
  // With batches, a busy queue waits for this many free slots rather than claiming one delivery at a
  // time as each run ends (the claims are what a batch saves); an idle one starts what is due at once.
  const minBatch = runBatch ? Math.max(1, Math.min(batchSize, Math.floor(concurrency / 8))) : 1

  const heap = new MinHeap<Entry>((a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq))
  /** Ids waiting or running. */
  const held = new Set<string>()
  const inFlight = new Set<Promise<void>>()
  let seq = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let timerAt = Number.POSITIVE_INFINITY
  let closed = false

  const disarm = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    timerAt = Number.POSITIVE_INFINITY
  }

  /** One timer, for the earliest waiting delivery; none while every slot is busy (a finishing run pumps). */
  const arm = () => {
    const next = heap.peek()
    if (closed || next === undefined || !canStart()) return disarm()
    if (timer !== undefined && timerAt === next.at) return
    disarm()
    timerAt = next.at
    timer = setTimeout(
      () => {
        timer = undefined
        timerAt = Number.POSITIVE_INFINITY
        pump()
      },
      Math.min(Math.max(0, next.at - now()), MAX_TIMER_MS),
    )
    unref(timer)
  }

  /** A free slot (with batches: `minBatch` of them, or nothing running). */
  const canStart = () => concurrency - inFlight.size >= minBatch || inFlight.size === 0

  const start = (entry: Entry, running?: () => Promise<unknown>) => {
    const { targetId, version, attempt } = entry.delivery
    // The run starts on a microtask, after the slot is counted, so a run that enqueues re-entrantly sees it taken.
    const task: Promise<void> = Promise.resolve()
      .then(running ?? (() => run(entry.delivery)))
      .then(
        () => undefined,
        (err: unknown) =>
          logger.error('publish_delivery_failed', { targetId, version, attempt, ...describeError(err) }),
      )
      .finally(() => {
        inFlight.delete(task)
        held.delete(entry.key)
        pump()
      })
    inFlight.add(task)
  }

  /** One `runBatch` call for these entries (on a microtask, as `start`); each keeps its slot until its promise settles. */
  function startBatch(entries: Entry[], runMany: NonNullable<typeof runBatch>): void {
    const runs = Promise.resolve().then(() => runMany(entries.map((e) => e.delivery)))
    entries.forEach((entry, i) =>
      start(entry, () =>
        runs.then((all) => all[i] ?? Promise.reject(new Error('runBatch answered fewer promises than deliveries'))),
      ),
    )
  }

  /** Starts every due delivery a free slot allows, then re-arms the timer. */
  function pump(): void {
    if (closed) return
    const time = now()
    while (canStart()) {
      const due: Entry[] = []
      const room = Math.min(concurrency - inFlight.size, runBatch ? batchSize : 1)
      while (due.length < room && heap.peek() !== undefined && heap.peek()!.at <= time) due.push(heap.pop()!)
      if (due.length === 0) break
      if (!runBatch) start(due[0]!)
      else startBatch(due, runBatch)
    }
    arm()
  }

  return {
    get waiting() {
      return heap.size
    },
    get running() {
      return inFlight.size
    },

    async enqueue(deliveries) {
      const times = deliveries.map((d) => d.notBefore.getTime())
      if (times.some((t) => !Number.isFinite(t))) throw new TypeError('Every delivery needs a valid notBefore date.')
      if (closed) {
        // Shutting down: the sweep finds these targets after the restart.
        if (deliveries.length > 0) logger.warn('publish_queue_closed', { dropped: deliveries.length })
        return
      }
      deliveries.forEach((delivery, i) => {
        const key = deliveryId(delivery)
        if (held.has(key)) return
        held.add(key)
        heap.push({ delivery, at: times[i]!, seq: seq++, key })
      })
      pump()
    },

    async close() {
      closed = true
      disarm()
      const dropped = heap.drain()
      for (const entry of dropped) held.delete(entry.key)
      if (dropped.length > 0) logger.info('publish_queue_closed', { dropped: dropped.length })
      await Promise.all([...inFlight])
    },
  }
}
