/**
 * On Node the inbox sync runs in process: besides the every-minute scheduled job, a short timer
 * (the sandbox interval, 5 s by default) lets sandbox accounts, whose simulated network answers at
 * once, show a new comment within seconds. A pass never overlaps the previous one; each pass only
 * takes accounts whose streams are due, so real networks keep their own interval.
 */
import type { Deps } from '../deps'
import { describeError } from '../infra/logger'
import { syncDueAccounts, syncPolicyOf } from '../services/inbox/sync'

export function startInboxSyncTimer(deps: Deps): () => void {
  const everyMs = Math.max(1, syncPolicyOf(deps).sandboxIntervalSec) * 1000
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    syncDueAccounts(deps, { now: deps.clock.now() })
      .then((report) => {
        if (report.accounts || report.failedStreams) deps.logger.debug('inbox_sync', { ...report })
      })
      .catch((err: unknown) => deps.logger.error('inbox_sync_failed', describeError(err)))
      .finally(() => {
        running = false
      })
  }, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
