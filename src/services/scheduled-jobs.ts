import type { Deps } from '../deps'
import { describeError } from '../infra/logger'
import { collectAnalytics } from './analytics/collect'
import { deleteEndedConnectLinks, deleteExpiredConnectChoices } from '../db/queries/connect-links'
import { deleteEndedSessionsBefore } from './people/sessions'
import { sweepTargets } from './publishing/sweep'
import { sweepWebhooks } from './webhooks/deliver'
import { syncDueAccounts } from './inbox/sync'
import { sendDueEmails } from './notifications/email-sender'
import { purgeExpiredActivity } from './activity/retention'

/** A periodic job: the Cron Trigger runs every job each minute on Workers, a timer does on Node. */
export interface ScheduledJob {
  name: string
  run(deps: Deps): Promise<void>
}

/**
 * The registered jobs. Publishing (sweep of due and expired targets) and analytics collection
 * add theirs here; one job failing never stops the others.
 */
export const SCHEDULED_JOBS: ReadonlyArray<ScheduledJob> = [
  {
    name: 'publish_sweep',
    run: async (deps) => {
      const report = await sweepTargets(deps)
      if (report.redispatched || report.released || report.confirmed || report.unconfirmed)
        deps.logger.info('publish_sweep', { ...report })
    },
  },
  {
    // Webhook outbox rows that are due and that no trigger reached (docs/webhooks.md).
    name: 'webhook_sweep',
    run: async (deps) => {
      const report = await sweepWebhooks(deps)
      if (report.attempted || report.purged) deps.logger.info('webhook_sweep', { ...report })
    },
  },
  {
    // Runs after the sweep, so a slow or failing network never delays publishing.
    name: 'analytics_collect',
    run: async (deps) => {
      const report = await collectAnalytics(deps, { now: deps.clock.now() })
      if (report.accounts) deps.logger.info('analytics_collect', { ...report })
    },
  },
  {
    // Comments, mentions and imported posts (docs/inbox.md, "Sync"): due accounts only, a bounded number per
    // pass; synced here, or handed to the sync queue (Workers: one QStash callback per account).
    name: 'inbox_sync',
    run: async (deps) => {
      const report = await syncDueAccounts(deps, { now: deps.clock.now() })
      if (report.accounts || report.failedStreams || report.queued) deps.logger.info('inbox_sync', { ...report })
    },
  },
  {
    // Hosted connect links (and the sign-ins started from them) a day after they stopped working;
    // identity choices never made (sealed tokens) as soon as they expire.
    name: 'connect_links_cleanup',
    run: async (deps) => {
      const now = deps.clock.now()
      const choices = await deleteExpiredConnectChoices(deps.db, now, 500)
      const deleted = await deleteEndedConnectLinks(deps.db, new Date(now.getTime() - 24 * 3600_000), 500)
      if (deleted || choices) deps.logger.info('connect_links_cleanup', { deleted, choices })
    },
  },
  {
    // Notification emails due (docs/notifications.md): sent, retried with backoff, or FAILED at last.
    name: 'email_send',
    run: async (deps) => {
      const report = await sendDueEmails(deps)
      if (report.sent || report.retrying || report.failed) deps.logger.info('email_send', { ...report })
    },
  },
  {
    // Dashboard sessions a day after they ended (expired, signed out, or idle past the limit).
    name: 'sessions_cleanup',
    run: async (deps) => {
      const deleted = await deleteEndedSessionsBefore(deps.db, deps.clock.now())
      if (deleted) deps.logger.info('sessions_cleanup', { deleted })
    },
  },
  {
    // Activity log entries older than the workspace's plan keeps (plans.activity_retention_days), in batches.
    name: 'activity_cleanup',
    run: async (deps) => {
      const deleted = await purgeExpiredActivity(deps.db, { now: deps.clock.now() })
      if (deleted) deps.logger.info('activity_cleanup', { deleted })
    },
  },
]

export async function runScheduledJobs(deps: Deps, jobs: ReadonlyArray<ScheduledJob> = SCHEDULED_JOBS): Promise<void> {
  for (const job of jobs) {
    const started = Date.now()
    try {
      await job.run(deps)
      deps.logger.debug('job_done', { job: job.name, ms: Date.now() - started })
    } catch (err) {
      deps.logger.error('job_failed', { job: job.name, ...describeError(err) })
    }
  }
}
