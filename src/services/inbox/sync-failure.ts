/** A stream's failure in words, and how long it backs off (services/inbox/sync.ts). */
import type { StoredFailure } from '../../db/schema'
import { backoffSec, type InboxSyncPolicy } from '../../domain/inbox-sync-policy'
import { CommentGone } from '../../networks/adapter'
import { NetworkFailure } from '../../networks/http'

export interface StreamFailure {
  error: StoredFailure
  backoffUntil: Date
}

/**
 * What to record: a network's failure keeps its class and message (the adapters write it for
 * people); a 429 waits what the network asked, at least the policy's backoff base; anything else is
 * our own error, recorded without its text (it may hold SQL or a stack).
 */
export function failureOf(err: unknown, policy: InboxSyncPolicy, failures: number, now: Date): StreamFailure {
  const waitSec = backoffSec(policy, failures)
  const at = (sec: number) => new Date(now.getTime() + sec * 1000)
  if (err instanceof NetworkFailure) {
    if (err.kind === 'rate_limited') {
      const asked = err.retryAfterSec ?? waitSec
      return {
        error: { code: 'rate_limited', message: `The network asked to wait before reading more: ${err.message}` },
        backoffUntil: at(Math.min(policy.backoffCapSec, Math.max(asked, 1))),
      }
    }
    return { error: { code: err.kind, message: err.message }, backoffUntil: at(waitSec) }
  }
  if (err instanceof CommentGone)
    return {
      error: { code: 'gone', message: 'A post or comment the network no longer has.' },
      backoffUntil: at(waitSec),
    }
  return {
    error: { code: 'internal', message: 'The service failed while reading from the network; it retries on its own.' },
    backoffUntil: at(waitSec),
  }
}
