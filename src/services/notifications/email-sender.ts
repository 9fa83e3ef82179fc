/**
 * The email sender pass: takes due PENDING rows of email_outbox, sends each through `Deps.mailer`,
 * and records the outcome: SENT; PENDING again later (backoff of domain/notifications.ts); FAILED
 * after the last attempt. Run each minute by the scheduled jobs (Node timer, Worker Cron Trigger).
 * Without a mailer (SMTP_URL unset, or on Workers) the rows wait, untouched.
 */
import { claimDueEmails, type EmailRow, recordEmailAttempt } from '../../db/queries/notifications'
import type { Deps } from '../../deps'
import { absoluteText, emailHtml } from '../../domain/notification-email'
import { EMAIL_MAX_ATTEMPTS, emailRetryDelayMs } from '../../domain/notifications'
import { MailError } from '../../infra/mailer/types'

export interface EmailPassReport {
  sent: number
  retrying: number
  failed: number
}

const LEASE_MS = 5 * 60_000

export async function sendDueEmails(
  deps: Pick<Deps, 'db' | 'mailer' | 'clock' | 'logger' | 'settings'>,
  options: { limit?: number; /** Only this workspace's emails (tests on a shared database). */ workspaceId?: string } = {},
): Promise<EmailPassReport> {
  const report: EmailPassReport = { sent: 0, retrying: 0, failed: 0 }
  const mailer = deps.mailer
  if (!mailer) return report
  const now = deps.clock.now()
  const rows = await claimDueEmails(deps.db, {
    now,
    leaseUntil: new Date(now.getTime() + LEASE_MS),
    limit: options.limit ?? 50,
    workspaceId: options.workspaceId,
  })
  for (const row of rows) {
    const outcome = await attempt(deps, row)
    report[outcome]++
  }
  return report
}

async function attempt(
  deps: Pick<Deps, 'db' | 'mailer' | 'clock' | 'logger' | 'settings'>,
  row: EmailRow,
): Promise<keyof EmailPassReport> {
  const text = absoluteText(row.textBody, deps.settings.publicUrl)
  const attempts = row.attempts + 1
  try {
    await deps.mailer!.send({ to: row.toAddress, subject: row.subject, text, html: emailHtml(text) })
    const now = deps.clock.now()
    await recordEmailAttempt(deps.db, { id: row.id, status: 'SENT', attempts, nextAttemptAt: now, lastError: null, now })
    return 'sent'
  } catch (error) {
    const lastError = error instanceof MailError ? error.message : 'Sending the email failed.'
    const now = deps.clock.now()
    const failed = attempts >= EMAIL_MAX_ATTEMPTS
    await recordEmailAttempt(deps.db, {
      id: row.id,
      status: failed ? 'FAILED' : 'PENDING',
      attempts,
      nextAttemptAt: new Date(now.getTime() + (failed ? 0 : emailRetryDelayMs(attempts))),
      lastError,
      now,
    })
    deps.logger.warn('email_failed', { emailId: row.id, attempts, final: failed, error: lastError })
    return failed ? 'failed' : 'retrying'
  }
}
