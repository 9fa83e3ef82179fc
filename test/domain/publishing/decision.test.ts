import { describe, expect, it } from 'vitest'
import {
  decideTarget,
  failedOnOurSide,
  type NetworkAnswer,
  RECONNECT_MESSAGE,
  type SavedProgress,
  type TargetDecision,
} from '../../../src/domain/publishing/decision'
import { DEFAULT_PUBLISH_POLICY, type PublishPolicy } from '../../../src/domain/publishing/policy'

const NOW = new Date('2026-11-21T10:00:00.000Z')
const at = (secondsFromNow: number) => new Date(NOW.getTime() + secondsFromNow * 1000)

/** Jitter fixed at its middle (factor 1.0): the backoff is exactly 10 s, 20 s, 40 s, 80 s... */
const POLICY: PublishPolicy = {
  ...DEFAULT_PUBLISH_POLICY,
  maxAttempts: 3,
  backoffBaseSec: 10,
  backoffMaxSec: 3600,
  maxPendingSec: 3 * 3600,
  random: () => 0.5,
}

/** What an adapter saved besides the pending job: kept whatever the decision. */
const SAVED = { headId: 'net_1', partIds: ['net_2'] }
const PENDING_SINCE = at(-3600).toISOString()

interface Case {
  name: string
  answer: NetworkAnswer
  attempts?: number
  progress?: SavedProgress
  expected: TargetDecision
}

const cases: Case[] = [
  {
    name: 'published, with the warnings the network gave',
    answer: { status: 'published', platformPostId: 'p1', permalink: 'https://n.example/p1', warnings: ['no alt'] },
    progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: PENDING_SINCE },
    expected: {
      outcome: 'published',
      change: {
        status: 'PUBLISHED',
        platformPostId: 'p1',
        permalink: 'https://n.example/p1',
        publishedAt: NOW,
        warnings: ['no alt'],
        error: null,
      },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'published with an empty list of warnings: none',
    answer: { status: 'published', platformPostId: 'p1', permalink: 'https://n.example/p1', warnings: [] },
    expected: {
      outcome: 'published',
      change: {
        status: 'PUBLISHED',
        platformPostId: 'p1',
        permalink: 'https://n.example/p1',
        publishedAt: NOW,
        warnings: null,
        error: null,
      },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'pending for the first time: checked again when the network said, the job starting now',
    answer: { status: 'pending', state: { job: 'j1' }, checkAfterSec: 1800 },
    expected: {
      outcome: 'pending',
      change: { status: 'PENDING', dueAt: at(1800), error: null },
      progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: NOW.toISOString() },
      expiredAccountMessage: null,
    },
  },
  {
    name: 'still pending: checked again, the time the job started kept',
    answer: { status: 'pending', state: { job: 'j1', step: 2 }, checkAfterSec: 600 },
    progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: PENDING_SINCE },
    expected: {
      outcome: 'pending',
      change: { status: 'PENDING', dueAt: at(600), error: null },
      progress: { ...SAVED, pending: { job: 'j1', step: 2 }, pendingSince: PENDING_SINCE },
      expiredAccountMessage: null,
    },
  },
  {
    name: 'pending exactly maxPendingSec after it started: still checked again',
    answer: { status: 'pending', state: { job: 'j1' }, checkAfterSec: 600 },
    progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: at(-3 * 3600).toISOString() },
    expected: {
      outcome: 'pending',
      change: { status: 'PENDING', dueAt: at(600), error: null },
      progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: at(-3 * 3600).toISOString() },
      expiredAccountMessage: null,
    },
  },
  {
    name: 'pending past maxPendingSec: FAILED unconfirmed, the limit in hours in the message',
    answer: { status: 'pending', state: { job: 'j1' }, checkAfterSec: 600 },
    progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: at(-3 * 3600 - 1).toISOString() },
    expected: {
      outcome: 'failed',
      change: {
        status: 'FAILED',
        error: {
          code: 'unconfirmed',
          message:
            'PHOTO_NET was still processing this post after 3 hours: check the account, and use retry only if the post is not there.',
          retryable: true,
        },
      },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'absent (an unconfirmed publish the network never made): PENDING, due now',
    answer: { status: 'absent' },
    progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: PENDING_SINCE },
    expected: {
      outcome: 'retrying',
      change: { status: 'PENDING', dueAt: NOW, error: null },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'absent after a publish cut short: PENDING, due now, the attempt its claim counted taken back',
    answer: { status: 'absent' },
    attempts: 2,
    expected: {
      outcome: 'retrying',
      change: { status: 'PENDING', dueAt: NOW, error: null, attempts: 1 },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'a pending job whose check failed for a passing reason: the job kept and asked about again after a backoff',
    answer: { status: 'failed', kind: 'transient', message: 'PHOTO_NET answered 503.' },
    attempts: 3,
    progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: PENDING_SINCE },
    expected: {
      outcome: 'retrying',
      change: {
        status: 'PENDING',
        dueAt: at(10),
        error: { code: 'transient', message: 'PHOTO_NET answered 503.', retryable: true },
      },
      progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: PENDING_SINCE, checkFailures: 1 },
      expiredAccountMessage: null,
    },
  },
  {
    name: 'a pending job rate limited on its second failed check: the wait the network asked, the job kept',
    answer: { status: 'failed', kind: 'rate_limited', message: 'slow down', retryAfterSec: 120 },
    progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: PENDING_SINCE, checkFailures: 1 },
    expected: {
      outcome: 'retrying',
      change: {
        status: 'PENDING',
        dueAt: at(120),
        error: { code: 'rate_limited', message: 'slow down', retryable: true },
      },
      progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: PENDING_SINCE, checkFailures: 2 },
      expiredAccountMessage: null,
    },
  },
  {
    name: 'a pending job whose checks failed maxAttempts times: FAILED unconfirmed (the post may be there), not sent again',
    answer: { status: 'failed', kind: 'transient', message: 'PHOTO_NET answered 503.' },
    progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: PENDING_SINCE, checkFailures: 2 },
    expected: {
      outcome: 'failed',
      change: {
        status: 'FAILED',
        error: {
          code: 'unconfirmed',
          message:
            "PHOTO_NET answered 503. PHOTO_NET holds this post's job, but how it went could not be read after 3 tries: check the account, and use retry only if the post is not there.",
          retryable: true,
        },
      },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'a pending job answering again after a failed check: the failed checks forgotten',
    answer: { status: 'pending', state: { job: 'j1', step: 3 }, checkAfterSec: 60 },
    progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: PENDING_SINCE, checkFailures: 2 },
    expected: {
      outcome: 'pending',
      change: { status: 'PENDING', dueAt: at(60), error: null },
      progress: { ...SAVED, pending: { job: 'j1', step: 3 }, pendingSince: PENDING_SINCE },
      expiredAccountMessage: null,
    },
  },
  {
    name: 'a pending job the network refused (processing failed): FAILED in its words, the job dropped',
    answer: { status: 'failed', kind: 'rejected', message: 'processing failed' },
    progress: { ...SAVED, pending: { job: 'j1' }, pendingSince: PENDING_SINCE, checkFailures: 1 },
    expected: {
      outcome: 'failed',
      change: { status: 'FAILED', error: { code: 'rejected', message: 'processing failed', retryable: false } },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'transient on the first attempt: PENDING after the first backoff',
    answer: { status: 'failed', kind: 'transient', message: 'PHOTO_NET could not be reached.' },
    attempts: 1,
    expected: {
      outcome: 'retrying',
      change: {
        status: 'PENDING',
        dueAt: at(10),
        error: { code: 'transient', message: 'PHOTO_NET could not be reached.', retryable: true },
      },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'transient on the second attempt, the network asking for less: the doubled backoff',
    answer: { status: 'failed', kind: 'transient', message: 'busy', retryAfterSec: 5 },
    attempts: 2,
    expected: {
      outcome: 'retrying',
      change: { status: 'PENDING', dueAt: at(20), error: { code: 'transient', message: 'busy', retryable: true } },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'rate limited, the network asking for longer than the backoff: its wait wins',
    answer: { status: 'failed', kind: 'rate_limited', message: 'slow down', retryAfterSec: 120 },
    attempts: 1,
    expected: {
      outcome: 'retrying',
      change: {
        status: 'PENDING',
        dueAt: at(120),
        error: { code: 'rate_limited', message: 'slow down', retryable: true },
      },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'transient at the budget: FAILED, retryable, saying it gave up',
    answer: { status: 'failed', kind: 'transient', message: 'PHOTO_NET could not be reached.' },
    attempts: 3,
    expected: {
      outcome: 'failed',
      change: {
        status: 'FAILED',
        error: {
          code: 'transient',
          message: 'PHOTO_NET could not be reached. (gave up after 3 attempts)',
          retryable: true,
        },
      },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'rate limited at the budget: FAILED, retryable, saying it gave up',
    answer: { status: 'failed', kind: 'rate_limited', message: 'slow down', retryAfterSec: 120 },
    attempts: 3,
    expected: {
      outcome: 'failed',
      change: {
        status: 'FAILED',
        error: { code: 'rate_limited', message: 'slow down (gave up after 3 attempts)', retryable: true },
      },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'rejected: FAILED at once, not retryable, the words unchanged',
    answer: { status: 'failed', kind: 'rejected', message: 'duplicate content' },
    attempts: 1,
    expected: {
      outcome: 'failed',
      change: { status: 'FAILED', error: { code: 'rejected', message: 'duplicate content', retryable: false } },
      progress: SAVED,
      expiredAccountMessage: null,
    },
  },
  {
    name: 'auth expired: FAILED retryable with the reconnect message, and the account expires',
    answer: { status: 'failed', kind: 'auth_expired', message: 'invalid token' },
    attempts: 1,
    expected: {
      outcome: 'failed',
      change: {
        status: 'FAILED',
        error: { code: 'auth_expired', message: `${RECONNECT_MESSAGE} (invalid token)`, retryable: true },
      },
      progress: SAVED,
      expiredAccountMessage: `${RECONNECT_MESSAGE}: invalid token`,
    },
  },
  {
    name: 'a new round (manual retry after 2 attempts): its attempts only count, the backoff by all attempts',
    answer: { status: 'failed', kind: 'transient', message: 'busy' },
    attempts: 4,
    progress: { ...SAVED, roundStart: 2 },
    expected: {
      outcome: 'retrying',
      change: { status: 'PENDING', dueAt: at(80), error: { code: 'transient', message: 'busy', retryable: true } },
      progress: { ...SAVED, roundStart: 2 },
      expiredAccountMessage: null,
    },
  },
  {
    name: 'a new round at its own budget: FAILED after the attempts of the round',
    answer: { status: 'failed', kind: 'transient', message: 'busy' },
    attempts: 5,
    progress: { ...SAVED, roundStart: 2 },
    expected: {
      outcome: 'failed',
      change: {
        status: 'FAILED',
        error: { code: 'transient', message: 'busy (gave up after 3 attempts)', retryable: true },
      },
      progress: { ...SAVED, roundStart: 2 },
      expiredAccountMessage: null,
    },
  },
]

describe('decideTarget: what happens to a target after the network answered', () => {
  it.each(cases)('$name', ({ answer, attempts = 1, progress = SAVED, expected }) => {
    const before = structuredClone(progress)
    const decision = decideTarget({ answer, platform: 'PHOTO_NET', attempts, progress, now: NOW, policy: POLICY })
    expect(decision).toEqual(expected)
    // A pure decision: the progress it was given is not touched.
    expect(progress).toEqual(before)
  })

  it('retries an error on our side like any transient failure, then gives up saying so', () => {
    const ours = failedOnOurSide('PHOTO_NET')
    expect(ours).toEqual({
      status: 'failed',
      kind: 'transient',
      message: 'PHOTO_NET publish failed on our side (unexpected error); retrying',
    })
    const decide = (attempts: number) =>
      decideTarget({ answer: ours, platform: 'PHOTO_NET', attempts, progress: {}, now: NOW, policy: POLICY })
    expect(decide(1).change).toEqual({ status: 'PENDING', dueAt: at(10), error: { ...pick(ours), retryable: true } })
    expect(decide(3).change).toEqual({
      status: 'FAILED',
      error: { code: 'transient', message: `${ours.message} (gave up after 3 attempts)`, retryable: true },
    })
  })
})

const pick = (answer: Extract<NetworkAnswer, { status: 'failed' }>) => ({ code: answer.kind, message: answer.message })
