/**
 * Admission control: at most `maxInFlight` requests at work at once; the others wait their turn in
 * arrival order, each for at most `maxWaitMs`, and one that would wait longer (or finds `maxWaiting`
 * already waiting) is refused at once instead. With a `loopLag` meter, a request is also refused at
 * once while the process's event loop is more than `maxWaitMs` behind: that is how long a request
 * arriving now has waited, unread, before its handler runs.
 *
 * It stands in front of embedded PGlite, which runs each statement synchronously on the process's
 * own thread: a request's statements and code run to its answer without giving the thread back, so
 * requests never pile up in the app (a turn is rarely waited for) but as unread bytes in the sockets,
 * behind the thread's work. Past what it can take, that queue grew without bound (18 s at 200 req/s);
 * the lag shows it, and refusing (a 503 costs a fraction of a request) lets the thread catch up.
 */
export interface Admission {
  /** Waits for a turn: resolves with the turn's release (call it exactly once), or null when refused. */
  enter(): Promise<(() => void) | null>
  /** Seconds a refused caller is told to wait (`Retry-After`). */
  readonly retryAfterSec: number
  /** What it sees now and has done, for logs and benchmarks. */
  stats(): AdmissionStats
}

export interface AdmissionStats {
  inFlight: number
  waiting: number
  admitted: number
  refused: number
}

export interface AdmissionLimits {
  /** Requests at work at once. */
  maxInFlight: number
  /** Longest a request waits for its turn before it is refused. */
  maxWaitMs: number
  /** Most requests waiting at once; beyond, a request is refused without waiting. Default 64 per request in flight. */
  maxWaiting?: number
  /** Default 1. */
  retryAfterSec?: number
  /** How far behind the event loop is now, in ms (`createLoopLagMeter`); unset: not looked at. */
  loopLag?: () => number
  /**
   * The lag refuses only while at least this many requests arrived over about the last second
   * (default 4 per request in flight): a long piece of the process's own work (an image's variants, a
   * large import) with one member on the dashboard is not overload, and its requests are let on.
   */
  busyArrivalsPerSec?: number
}

/** Requests arrived over about the last second: two one-second buckets, the older weighted by what is left of it. */
function arrivalCounter(now: () => number = () => performance.now()) {
  let bucketStart = now()
  let current = 0
  let previous = 0
  return () => {
    const t = now()
    const elapsed = t - bucketStart
    if (elapsed >= 1000) {
      previous = elapsed >= 2000 ? 0 : current
      current = 0
      bucketStart = t - (elapsed % 1000)
    }
    current++
    return current + previous * (1 - (t - bucketStart) / 1000)
  }
}

/**
 * How far behind the event loop is: a timer every `intervalMs`, and the time by which its next tick
 * is overdue now (0 when it is not). Read at any moment, also in the middle of a long run of work
 * that keeps the timer from firing. The timer does not keep the process alive.
 */
export function createLoopLagMeter(intervalMs = 10): { lagMs(): number; close(): void } {
  let expected = performance.now() + intervalMs
  const timer = setInterval(() => {
    expected = performance.now() + intervalMs
  }, intervalMs)
  ;(timer as { unref?: () => void }).unref?.()
  return { lagMs: () => Math.max(0, performance.now() - expected), close: () => clearInterval(timer) }
}

interface Waiter {
  grant: (release: () => void) => void
  timer: ReturnType<typeof setTimeout>
}

export function createAdmission(limits: AdmissionLimits): Admission {
  const maxWaiting = limits.maxWaiting ?? limits.maxInFlight * 64
  const busyArrivals = limits.busyArrivalsPerSec ?? limits.maxInFlight * 4
  const arrive = arrivalCounter()
  const waiters: Waiter[] = []
  let inFlight = 0
  let admitted = 0
  let refused = 0

  const turn = () => {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = waiters.shift()
      if (!next) {
        inFlight--
        return
      }
      // The slot passes straight to the longest waiter: inFlight stays the same.
      clearTimeout(next.timer)
      admitted++
      next.grant(turn())
    }
  }

  return {
    retryAfterSec: limits.retryAfterSec ?? 1,
    stats: () => ({ inFlight, waiting: waiters.length, admitted, refused }),
    enter() {
      const arrivals = arrive()
      if (limits.loopLag && arrivals >= busyArrivals && limits.loopLag() > limits.maxWaitMs) {
        refused++
        return Promise.resolve(null)
      }
      if (inFlight < limits.maxInFlight) {
        inFlight++
        admitted++
        return Promise.resolve(turn())
      }
      if (waiters.length >= maxWaiting || limits.maxWaitMs <= 0) {
        refused++
        return Promise.resolve(null)
      }
      return new Promise((resolve) => {
        const waiter: Waiter = {
          grant: resolve,
          timer: setTimeout(() => {
            const at = waiters.indexOf(waiter)
            if (at >= 0) waiters.splice(at, 1)
            refused++
            resolve(null)
          }, limits.maxWaitMs),
        }
        waiters.push(waiter)
      })
    },
  }
}
