/**
 * What happens to a target after a network answered a publish or a status check: published,
 * checked again later, retried after a backoff, or failed for good, and whether the account's
 * token has to be reconnected. A pure function of the answer, the target's attempts and saved
 * progress, the time and the retry policy; the engine writes what it decides in one transaction.
 */
import type { TargetError, TargetErrorCode } from '../vocabulary'
import { type PublishPolicy, retryDelaySec } from './policy'

/** How a network call failed (the adapters' failure classes). */
export type FailureKind = TargetErrorCode

/**
 * A network's answer, as far as the decision reads it. The adapters' own result type has the same
 * shape; it is restated here so the rules of the engine need nothing of the adapters.
 */
export type NetworkAnswer =
  | { status: 'published'; platformPostId: string; permalink: string; warnings?: string[] }
  | { status: 'pending'; state: unknown; checkAfterSec: number }
  | { status: 'failed'; kind: FailureKind; message: string; retryAfterSec?: number; retryable?: boolean }
  /** Only from a status check of an unconfirmed publish: the network has no such post. */
  | { status: 'absent' }

/**
 * A target's saved progress. The decision reads the round start (attempts before the last manual
 * publish or retry) and the pending job and its start; anything else an adapter saved is kept.
 */
export interface SavedProgress {
  pending?: unknown
  pendingSince?: unknown
  /** Checks of the pending job that failed in a row (a transient failure or a rate limit). */
  checkFailures?: unknown
  roundStart?: unknown
  [extra: string]: unknown
}

export interface DecisionInput {
  answer: NetworkAnswer
  /** The target's platform, named in the messages. */
  platform: string
  /** The target's attempts counter, the attempt just made included. */
  attempts: number
  progress: SavedProgress
  now: Date
  policy: PublishPolicy
}

export type TargetOutcome = 'published' | 'pending' | 'retrying' | 'failed'

/** The target's new state: the columns to write besides its progress. */
export type TargetChange =
  | {
      status: 'PUBLISHED'
      platformPostId: string
      permalink: string
      publishedAt: Date
      warnings: string[] | null
      error: null
    }
  | { status: 'PENDING'; dueAt: Date; error: TargetError | null; attempts?: number }
  | { status: 'FAILED'; error: TargetError }

export interface TargetDecision {
  outcome: TargetOutcome
  change: TargetChange
  /** The progress to store: with the network's job while it is still pending, without it otherwise. */
  progress: SavedProgress
  /** Set when the network refused the account's token: the account becomes EXPIRED with this status message. */
  expiredAccountMessage: string | null
}

export const RECONNECT_MESSAGE = 'token expired: reconnect the account'

/**
 * What the engine records when an adapter (or our own code around it) threw something that is not
 * a network failure: a bug on our side, retried like a transient failure. The message says so
 * without repeating the error's text, which may quote a network's answer or a token.
 */
export function failedOnOurSide(platform: string): Extract<NetworkAnswer, { status: 'failed' }> {
  return {
    status: 'failed',
    kind: 'transient',
    message: `${platform} publish failed on our side (unexpected error); retrying`,
  }
}

export function decideTarget(input: DecisionInput): TargetDecision {
  const { answer, now, progress } = input
  switch (answer.status) {
    case 'published':
      return {
        outcome: 'published',
        change: {
          status: 'PUBLISHED',
          platformPostId: answer.platformPostId,
          permalink: answer.permalink,
          publishedAt: now,
          warnings: answer.warnings?.length ? answer.warnings : null,
          error: null,
        },
        progress: withoutPending(progress),
        expiredAccountMessage: null,
      }
    case 'pending':
      return stillPending(input, answer)
    case 'absent':
      // Only the sweep asks about an unconfirmed publish; here it means the network never made it,
      // so the claim cut short (by a crash, a lost holder) was no attempt at the network: the count
      // its claim added is taken back (a claim checking on a job still processing added none).
      return {
        outcome: 'retrying',
        change: {
          status: 'PENDING',
          dueAt: now,
          error: null,
          ...(progress.pending == null ? { attempts: Math.max(input.attempts - 1, 0) } : {}),
        },
        progress: withoutPending(progress),
        expiredAccountMessage: null,
      }
    case 'failed':
      return failed(input, answer)
  }
}

/** A job still processing is checked again when the network said, until `maxPendingSec` since it started. */
function stillPending(input: DecisionInput, answer: Extract<NetworkAnswer, { status: 'pending' }>): TargetDecision {
  const { now, policy, progress } = input
  const since = typeof progress.pendingSince === 'string' ? new Date(progress.pendingSince) : now
  if (now.getTime() - since.getTime() > policy.maxPendingSec * 1000) {
    const hours = Math.round(policy.maxPendingSec / 3600)
    const message = `${input.platform} was still processing this post after ${hours} hours: check the account, and use retry only if the post is not there.`
    return {
      outcome: 'failed',
      change: { status: 'FAILED', error: { code: 'unconfirmed', message, retryable: true } },
      progress: withoutPending(progress),
      expiredAccountMessage: null,
    }
  }
  return {
    outcome: 'pending',
    change: { status: 'PENDING', dueAt: new Date(now.getTime() + answer.checkAfterSec * 1000), error: null },
    progress: { ...withoutCheckFailures(progress), pending: answer.state, pendingSince: since.toISOString() },
    expiredAccountMessage: null,
  }
}

/**
 * A transient or rate-limited failure is retried after a backoff while the attempts of this round
 * (since the last manual publish or retry) are under `maxAttempts`; past that, and for any other
 * failure, the target fails. An expired token fails it retryable and expires the account; a
 * network may say a failure is retryable by hand (`retryable`), else the kind decides.
 */
function failed(input: DecisionInput, answer: Extract<NetworkAnswer, { status: 'failed' }>): TargetDecision {
  const checking = jobCheckFailed(input, answer)
  if (checking) return checking
  const { now, policy, attempts, progress } = input
  const roundAttempts = attempts - (typeof progress.roundStart === 'number' ? progress.roundStart : 0)
  const transient = answer.kind === 'transient' || answer.kind === 'rate_limited'
  const code = answer.kind
  const authExpired = answer.kind === 'auth_expired'
  const message = authExpired ? `${RECONNECT_MESSAGE} (${answer.message})` : answer.message
  const expiredAccountMessage = authExpired ? `${RECONNECT_MESSAGE}: ${answer.message}` : null
  if (transient && roundAttempts < policy.maxAttempts) {
    const waitSec = retryDelaySec(policy, attempts, answer.retryAfterSec)
    return {
      ...retryingAfter(now, waitSec, { code, message }),
      progress: withoutPending(progress),
      expiredAccountMessage,
    }
  }
  return {
    outcome: 'failed',
    change: {
      status: 'FAILED',
      error: {
        code,
        message: transient ? `${message} (gave up after ${roundAttempts} attempts)` : message,
        retryable: answer.retryable ?? (transient || authExpired || answer.kind === 'unconfirmed'),
      },
    },
    progress: withoutPending(progress),
    expiredAccountMessage,
  }
}

/**
 * The network holds this post's job (an upload, a container, a video processing) and asking how it
 * goes failed for a passing reason: the job is kept and asked about again after a backoff, never
 * started over (that would make the post twice). Those checks count apart from the publish attempts
 * (`checkFailures`); past `maxAttempts` of them in a row, the target ends `unconfirmed`, since the
 * post may well be there. A refusal (the job failed, the video was rejected) ends it as any failure.
 */
function jobCheckFailed(
  input: DecisionInput,
  answer: Extract<NetworkAnswer, { status: 'failed' }>,
): TargetDecision | null {
  const { now, policy, progress } = input
  if (progress.pending == null || (answer.kind !== 'transient' && answer.kind !== 'rate_limited')) return null
  const failures = (typeof progress.checkFailures === 'number' ? progress.checkFailures : 0) + 1
  if (failures < policy.maxAttempts) {
    const waitSec = retryDelaySec(policy, failures, answer.retryAfterSec)
    const error = { code: answer.kind, message: answer.message }
    return {
      ...retryingAfter(now, waitSec, error),
      progress: { ...progress, checkFailures: failures },
      expiredAccountMessage: null,
    }
  }
  const message = `${answer.message} ${input.platform} holds this post's job, but how it went could not be read after ${failures} tries: check the account, and use retry only if the post is not there.`
  return {
    outcome: 'failed',
    change: { status: 'FAILED', error: { code: 'unconfirmed', message, retryable: true } },
    progress: withoutPending(progress),
    expiredAccountMessage: null,
  }
}

/** Retried by a later delivery: PENDING again `waitSec` from now, the failure kept as retryable. */
function retryingAfter(
  now: Date,
  waitSec: number,
  error: { code: FailureKind; message: string },
): Pick<TargetDecision, 'outcome' | 'change'> {
  return {
    outcome: 'retrying',
    change: {
      status: 'PENDING',
      dueAt: new Date(now.getTime() + waitSec * 1000),
      error: { ...error, retryable: true },
    },
  }
}

/** Any answer but a job still processing ends the network's job: its state is no longer kept. */
function withoutPending(progress: SavedProgress): SavedProgress {
  const { pending: _pending, pendingSince: _since, checkFailures: _failures, ...rest } = progress
  return rest
}

/** A job that answered again: the failed checks before it no longer count. */
function withoutCheckFailures(progress: SavedProgress): SavedProgress {
  const { checkFailures: _failures, ...rest } = progress
  return rest
}
