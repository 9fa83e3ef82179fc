/** How the engine retries and how long a claim holds; tests and benchmarks pass their own. */
export interface PublishPolicy {
  /** Attempts in all (the first included) before a transient failure becomes FAILED. */
  maxAttempts: number
  /** First retry waits about this long; each next one twice as long (with jitter), capped. */
  backoffBaseSec: number
  backoffMaxSec: number
  /** A claim lasts this long; past it, the sweep asks the network what happened. */
  leaseSec: number
  /** A due target that no delivery reached gets a new one after this grace. */
  sweepGraceSec: number
  /**
   * A network still processing a post (upload, container, video job) after this long ends FAILED
   * `unconfirmed`: never pending for ever.
   */
  maxPendingSec: number
  /** Jitter source, 0..1 (deterministic in tests). */
  random: () => number
}

export const DEFAULT_PUBLISH_POLICY: PublishPolicy = {
  maxAttempts: 5,
  backoffBaseSec: 30,
  backoffMaxSec: 3600,
  leaseSec: 300,
  sweepGraceSec: 60,
  maxPendingSec: 24 * 3600,
  random: Math.random,
}

/** Seconds to wait before attempt `attempt + 1`: exponential with ±20% jitter, never less than the network asked. */
export function retryDelaySec(policy: PublishPolicy, attempt: number, networkAskedSec?: number): number {
  const exponential = Math.min(policy.backoffMaxSec, policy.backoffBaseSec * 2 ** Math.max(0, attempt - 1))
  const jittered = exponential * (0.8 + 0.4 * policy.random())
  return Math.max(networkAskedSec ?? 0, Math.round(jittered * 1000) / 1000)
}
