import { and, eq, isNull, or, sql } from 'drizzle-orm'
import { accounts, targets } from '../../db/schema'
import type { Deps } from '../../deps'
import type { PublishProgress, PublishResult } from '../../networks/adapter'
import { dispatchPendingTargets } from './dispatch'
import { settlePost } from './aggregate'
import { retryDelaySec, type PublishPolicy } from '../../domain/publishing/policy'
import { lockPostRow, type ClaimedTarget } from './claim'

export type PublishOutcome = 'published' | 'pending' | 'retrying' | 'failed' | 'skipped'

type EngineDeps = Pick<Deps, 'db' | 'clock' | 'publishQueue' | 'logger'>

/**
 * Still ours: PUBLISHING under our own claim (fenced by its lease: a sweep that took the target
 * over set a new one), or marked unconfirmed by the sweep while we were still at it, in which
 * case what the network really answered is the truth to record.
 */
const ours = (target: { id: string; leaseUntil: Date | null }) =>
  and(
    eq(targets.id, target.id),
    or(
      and(
        eq(targets.status, 'PUBLISHING'),
        target.leaseUntil ? eq(targets.leaseUntil, target.leaseUntil) : isNull(targets.leaseUntil),
      ),
      and(eq(targets.status, 'FAILED'), sql`${targets.error} ->> 'code' = 'unconfirmed'`),
    ),
  )

export const RECONNECT_MESSAGE = 'token expired: reconnect the account'

/**
 * Writes what the network answered onto the target and the post, in one transaction with the
 * post's status; then hands any follow-up (a retry, a status check, the next occurrence of a
 * recurring post) to the queue.
 */
export async function recordResult(
  deps: EngineDeps,
  policy: PublishPolicy,
  claimed: ClaimedTarget,
  result: PublishResult,
  progress: PublishProgress,
): Promise<PublishOutcome> {
  const now = deps.clock.now()
  const { target } = claimed
  const attempt = target.attempts
  // Attempts of this round (since the last manual publish or retry) count against the budget.
  const roundAttempts = attempt - (typeof progress.roundStart === 'number' ? progress.roundStart : 0)
  let outcome: PublishOutcome
  let update: Partial<typeof targets.$inferInsert>
  switch (result.status) {
    case 'published':
      outcome = 'published'
      update = {
        status: 'PUBLISHED',
        platformPostId: result.platformPostId,
        permalink: result.permalink,
        publishedAt: now,
        warnings: result.warnings?.length ? result.warnings : null,
        error: null,
      }
      break
    case 'pending': {
      const since = typeof progress.pendingSince === 'string' ? new Date(progress.pendingSince) : now
      if (now.getTime() - since.getTime() > policy.maxPendingSec * 1000) {
        outcome = 'failed'
        const hours = Math.round(policy.maxPendingSec / 3600)
        const message = `${target.platform} was still processing this post after ${hours} hours: check the account, and use retry only if the post is not there.`
        update = { status: 'FAILED', error: { code: 'unconfirmed', message, retryable: true } }
        break
      }
      outcome = 'pending'
      update = {
        status: 'PENDING',
        dueAt: new Date(now.getTime() + result.checkAfterSec * 1000),
        progress: { ...progress, pending: result.state, pendingSince: since.toISOString() },
        error: null,
      }
      break
    }
    case 'absent':
      // Only the sweep asks about an unconfirmed publish; here it means the network never made it.
      outcome = 'retrying'
      update = { status: 'PENDING', dueAt: now, error: null }
      break
    case 'failed': {
      const transient = result.kind === 'transient' || result.kind === 'rate_limited'
      const code = result.kind
      const message = result.kind === 'auth_expired' ? `${RECONNECT_MESSAGE} (${result.message})` : result.message
      if (transient && roundAttempts < policy.maxAttempts) {
        outcome = 'retrying'
        const waitSec = retryDelaySec(policy, attempt, result.retryAfterSec)
        update = {
          status: 'PENDING',
          dueAt: new Date(now.getTime() + waitSec * 1000),
          error: { code, message, retryable: true },
        }
      } else {
        outcome = 'failed'
        update = {
          status: 'FAILED',
          error: {
            code,
            message: transient ? `${message} (gave up after ${roundAttempts} attempts)` : message,
            retryable: transient || result.kind === 'auth_expired',
          },
        }
      }
      break
    }
  }
  const followUp = await deps.db.transaction(async (tx) => {
    // Lock order everywhere: the post, then its targets.
    const locked = await lockPostRow(tx, target.postId)
    if (!locked) return { nextPostId: null, written: false }
    const written = await tx
      .update(targets)
      .set({
        ...update,
        leaseUntil: null,
        updatedAt: now,
        ...(update.status !== 'PENDING' || result.status !== 'pending' ? { progress: stripPending(progress) } : {}),
      })
      .where(ours(target))
      .returning({ id: targets.id })
    if (written.length === 0) return { nextPostId: null, written: false }
    if (result.status === 'failed' && result.kind === 'auth_expired') {
      await tx
        .update(accounts)
        .set({ status: 'EXPIRED', statusMessage: `${RECONNECT_MESSAGE}: ${result.message}`, updatedAt: now })
        .where(eq(accounts.id, target.accountId))
    }
    return { nextPostId: await settlePost(tx, target.postId, now, locked), written: true }
  })
  if (!followUp.written) return 'skipped'
  if (update.status === 'PENDING') await dispatchPendingTargets(deps, target.postId, [target.id])
  if (followUp.nextPostId) await dispatchPendingTargets(deps, followUp.nextPostId)
  return outcome
}

function stripPending(progress: PublishProgress): PublishProgress {
  const { pending: _pending, pendingSince: _since, ...rest } = progress
  return rest
}
