/**
 * The delivery worker. Due outbox rows are claimed in batches (one statement for the batch: FOR
 * UPDATE SKIP LOCKED, a lease on each row), sent at once within bounds (at most `SEND_CONCURRENCY`
 * in all and `ENDPOINT_CONCURRENCY` per endpoint, so a slow endpoint holds only its own share), and
 * their results written together (`resultWriter`). Called by the queue right after the commit that
 * wrote the rows (in process on Node, a QStash callback on Workers), by the every-minute sweep for
 * rows no trigger reached, and for each retry. Safe to call any number of times: a claim takes a
 * due row for one attempt only.
 */
import { claimDueDeliveries, type DeliveryClaim, selectDeliveryContext } from '../../db/queries/webhook-claims'
import { type ClaimedDelivery, deleteEventsBefore } from '../../db/queries/webhook-outbox'
import type { Deps } from '../../deps'
import { EVENT_RETENTION_MS, webhookPolicy } from '../../domain/webhooks/policy'
import { describeError } from '../../infra/logger'
import { type AttemptResult, sendAttempt } from './attempt'
import { resultWriter } from './result-writer'
import type { WebhookOutcome } from './settle'
import { sendGate, signerCache } from './send-gate'

export type { WebhookOutcome } from './settle'

export type DeliverDeps = Pick<Deps, 'db' | 'clock' | 'cipher' | 'networks' | 'logger' | 'settings' | 'webhookQueue'>

/** Attempts on the wire at once, in all and to one endpoint. */
export const SEND_CONCURRENCY = 128
export const ENDPOINT_CONCURRENCY = 32

const DISABLED: AttemptResult = {
  ok: false,
  statusCode: null,
  durationMs: 0,
  responseBody: null,
  errorClass: 'endpoint_disabled',
  retryAfterMs: null,
}

export interface WebhookDeliverer {
  /** These deliveries (the queue's triggers), claimed together: one outcome per id, in order. */
  deliver(ids: string[]): Array<Promise<WebhookOutcome>>
  /** Up to `limit` due deliveries, oldest due first (the sweep): their outcomes. */
  deliverDue(scope: { limit: number; workspaceId?: string | undefined }): Promise<WebhookOutcome[]>
}

/**
 * A worker that keeps its bounds and its writer across batches (Node's in-process queue keeps one;
 * a QStash callback or a sweep makes its own).
 */
export function webhookDeliverer(deps: DeliverDeps): WebhookDeliverer {
  const policy = webhookPolicy(deps.settings.webhooks)
  const record = resultWriter(deps, policy)
  const gate = sendGate({ total: SEND_CONCURRENCY, perKey: ENDPOINT_CONCURRENCY })
  const signers = signerCache(deps.cipher)

  const claim = async (scope: Omit<DeliveryClaim, 'now' | 'leaseUntil'>) => {
    const now = deps.clock.now()
    const leaseUntil = new Date(now.getTime() + policy.leaseMs)
    const rows = await claimDueDeliveries(deps.db, { ...scope, now, leaseUntil })
    const { events, endpoints } = await selectDeliveryContext(deps.db, rows)
    const claimed = rows.flatMap((delivery): ClaimedDelivery[] => {
      const event = events.get(delivery.eventId)
      const endpoint = endpoints.get(delivery.endpointId)
      return event && endpoint ? [{ delivery, event, endpoint }] : []
    })
    return { claimed, leaseUntil }
  }

  /** One claimed delivery: sent when the bounds allow, if its lease still covers a whole attempt; then recorded. */
  const attempt = async (claimed: ClaimedDelivery, leaseUntil: Date): Promise<WebhookOutcome> => {
    const { delivery, event, endpoint } = claimed
    let result: AttemptResult
    if (!endpoint.enabled && delivery.eventType !== 'ping') result = DISABLED
    else {
      const release = await gate.acquire(endpoint.id)
      try {
        const at = deps.clock.now()
        // Waited so long that the lease could end mid-attempt: not sent; it is due again when the lease ends.
        if (at.getTime() + policy.timeoutMs > leaseUntil.getTime()) return 'skipped'
        const body = JSON.stringify(event.payload)
        const headers = (await signers.of(endpoint, at)).sign({ id: event.id, timestamp: at, body })
        result = await sendAttempt(deps, policy, { url: endpoint.url, headers, body })
      } finally {
        release()
      }
    }
    return record({ claimed, leaseUntil, result })
  }

  const claimTogether = together(async (ids: string[]) => {
    const { claimed, leaseUntil } = await claim({ ids, limit: ids.length })
    return { claimed: new Map(claimed.map((c) => [c.delivery.id, c])), leaseUntil }
  })

  return {
    deliver(ids) {
      const batch = claimTogether(ids)
      return ids.map(async (id) => {
        const { claimed, leaseUntil } = await batch
        // A delivery asked for twice in one claim is attempted once.
        const mine = claimed.get(id)
        claimed.delete(id)
        return mine ? attempt(mine, leaseUntil) : 'skipped'
      })
    },
    async deliverDue(scope) {
      const { claimed, leaseUntil } = await claim(scope)
      return Promise.all(
        claimed.map((c) =>
          attempt(c, leaseUntil).catch((err: unknown) => {
            deps.logger.error('webhook_attempt_failed', { deliveryId: c.delivery.id, ...describeError(err) })
            return 'skipped' as const
          }),
        ),
      )
    },
  }
}

/**
 * `run` for the ids of several callers at once: the calls made while one runs wait and go together
 * in the next, so a stream of triggers of one delivery each makes a few claims of many.
 */
function together<T>(run: (ids: string[]) => Promise<T>): (ids: string[]) => Promise<T> {
  let waiting: Array<{ ids: string[]; resolve: (value: T) => void; reject: (err: unknown) => void }> = []
  let busy = false
  const next = () => {
    const group = waiting
    waiting = []
    if (group.length === 0) {
      busy = false
      return
    }
    run(group.flatMap((g) => g.ids))
      .then(
        (value) => group.forEach((g) => g.resolve(value)),
        (err: unknown) => group.forEach((g) => g.reject(err)),
      )
      .finally(next)
  }
  return (ids) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ ids, resolve, reject })
      if (busy) return
      busy = true
      setTimeout(next, 0)
    })
}

/** One attempt of one delivery (a QStash callback, a test ping). */
export function deliverWebhook(deps: DeliverDeps, deliveryId: string): Promise<WebhookOutcome> {
  return webhookDeliverer(deps).deliver([deliveryId])[0]!
}

/** Old events a sweep deletes at most. */
const PURGE_BATCH = 1000

/** Deliveries claimed per batch by a sweep; the sweep goes on while batches come back full, for at most SWEEP_MS. */
const SWEEP_BATCH = 200
const SWEEP_MS = 45_000
const SWEEP_LANES = 4

/**
 * The safety net (every minute): due PENDING rows that no trigger reached (a crash between commit
 * and send, a lost QStash message, a retry whose timer died with the process) are attempted now,
 * in batches (a few at once), until none is due or the pass has run SWEEP_MS.
 */
export async function sweepWebhooks(
  deps: DeliverDeps,
  scope: { workspaceId?: string } = {},
): Promise<{ attempted: number; delivered: number; purged: number }> {
  // Events are kept 30 days (GET /v1/events); older ones go, a bounded batch per pass.
  const purged = await deleteEventsBefore(deps.db, {
    before: new Date(deps.clock.now().getTime() - EVENT_RETENTION_MS),
    limit: PURGE_BATCH,
    workspaceId: scope.workspaceId,
  })
  const deliverer = webhookDeliverer(deps)
  const until = Date.now() + SWEEP_MS
  let attempted = 0
  let delivered = 0
  // A few batches in flight at once: one is sent while the next is claimed and the last recorded.
  const lane = async () => {
    for (;;) {
      const outcomes = await deliverer.deliverDue({ limit: SWEEP_BATCH, workspaceId: scope.workspaceId })
      attempted += outcomes.length
      delivered += outcomes.filter((o) => o === 'delivered').length
      if (outcomes.length < SWEEP_BATCH || Date.now() > until) return
    }
  }
  await Promise.all(Array.from({ length: SWEEP_LANES }, lane))
  return { attempted, delivered, purged }
}
