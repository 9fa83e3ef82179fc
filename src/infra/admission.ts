/**
 * Admission control: at most `maxInFlight` requests at work at once; the others wait their turn in
 * arrival order, each for at most `maxWaitMs`, and one that would wait longer (or finds `maxWaiting`
 * already waiting) is refused at once instead. It stands in front of a database that runs one
 * statement at a time (embedded PGlite, on the process's own thread): past what that database can
 * take, requests queued behind each other's statements without bound (18 s at 200 req/s), so the
 * excess is now refused quickly (503 with `Retry-After`) and what is admitted stays fast.
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
}

interface Waiter {
  grant: (release: () => void) => void
  timer: ReturnType<typeof setTimeout>
}

export function createAdmission(limits: AdmissionLimits): Admission {
  const maxWaiting = limits.maxWaiting ?? limits.maxInFlight * 64
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
