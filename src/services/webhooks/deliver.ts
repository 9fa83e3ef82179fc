/**
 * The delivery worker: one attempt of one outbox row. Called by the queue right after the commit
 * that wrote the row (in process on Node, a QStash callback on Workers), by the every-minute sweep
 * for rows no trigger reached, and for each retry. Safe to call any number of times: the claim
 * takes a due row for one attempt only.
 */
import { disableEndpoint, markEndpointFailing, markEndpointSucceeded } from '../../db/queries/webhook-endpoints'
import {
  claimDelivery,
  type ClaimedDelivery,
  deleteEventsBefore,
  failPendingDeliveriesOf,
  insertAttemptRow,
  insertDeliveryRows,
  selectDueDeliveries,
  settleDelivery,
} from '../../db/queries/webhook-outbox'
import type { Tx } from '../../db/types'
import type { Deps } from '../../deps'
import {
  EVENT_RETENTION_MS,
  webhookPolicy,
  webhookRetryDelayMs,
  type WebhookPolicy,
} from '../../domain/webhooks/policy'
import { describeError } from '../../infra/logger'
import { newId } from '../../lib/ids'
import { type AttemptResult, sendAttempt } from './attempt'
import { toEndpointRecord } from './endpoints'
import { newOutbox, recordEvent, sendOutbox, type Outbox } from './outbox'
import { openSecret, signedHeaders } from './signing'

export type WebhookOutcome = 'delivered' | 'retrying' | 'failed' | 'skipped'

type DeliverDeps = Pick<Deps, 'db' | 'clock' | 'cipher' | 'networks' | 'logger' | 'settings' | 'webhookQueue'>

/** The endpoint's live secrets: the current one, and the one a rotation replaced while it still signs. */
async function liveSecrets(deps: DeliverDeps, claimed: ClaimedDelivery, now: Date): Promise<string[]> {
  const { endpoint } = claimed
  const secrets = [await openSecret(deps.cipher, endpoint.secret, endpoint.id)]
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now)
    secrets.push(await openSecret(deps.cipher, endpoint.previousSecret, endpoint.id))
  return secrets
}

const DISABLED: AttemptResult = {
  ok: false,
  statusCode: null,
  durationMs: 0,
  responseBody: null,
  errorClass: 'endpoint_disabled',
  retryAfterMs: null,
}

export async function deliverWebhook(deps: DeliverDeps, deliveryId: string): Promise<WebhookOutcome> {
  const policy = webhookPolicy(deps.settings.webhooks)
  const claimedAt = deps.clock.now()
  const leaseUntil = new Date(claimedAt.getTime() + policy.leaseMs)
  const claimed = await claimDelivery(deps.db, deliveryId, { now: claimedAt, leaseUntil })
  if (!claimed) return 'skipped'
  const { delivery, event, endpoint } = claimed
  let result: AttemptResult
  if (!endpoint.enabled && delivery.eventType !== 'ping') result = DISABLED
  else {
    const body = JSON.stringify(event.payload)
    const headers = signedHeaders(await liveSecrets(deps, claimed, claimedAt), {
      id: event.id,
      timestamp: claimedAt,
      body,
    })
    result = await sendAttempt(deps, policy, { url: endpoint.url, headers, body })
  }
  const outbox = newOutbox()
  const now = deps.clock.now()
  const settled = await deps.db.transaction((tx) => settle(tx, outbox, policy, claimed, leaseUntil, result, now))
  await sendOutbox(deps, outbox)
  if (settled.outcome === 'retrying' && settled.nextAttemptAt) {
    await deps.webhookQueue
      .enqueue([{ deliveryId, notBefore: settled.nextAttemptAt }])
      .catch((err: unknown) => deps.logger.warn('webhook_enqueue_failed', describeError(err)))
  }
  if (settled.outcome !== 'delivered')
    deps.logger.info('webhook_attempt', {
      deliveryId,
      endpointId: endpoint.id,
      attempt: delivery.attempts + 1,
      status: result.statusCode,
      errorClass: result.errorClass,
      outcome: settled.outcome,
    })
  return settled.outcome
}

/** Records the attempt and moves the row on: DELIVERED, PENDING at its next time, or FAILED. */
async function settle(
  tx: Tx,
  outbox: Outbox,
  policy: WebhookPolicy,
  claimed: ClaimedDelivery,
  leaseUntil: Date,
  result: AttemptResult,
  now: Date,
): Promise<{ outcome: WebhookOutcome; nextAttemptAt: Date | null }> {
  const { delivery, endpoint } = claimed
  const attempt = delivery.attempts + 1
  const done = (status: 'DELIVERED' | 'FAILED') =>
    settleDelivery(tx, delivery.id, leaseUntil, {
      status,
      attempts: attempt,
      nextAttemptAt: null,
      deliveredAt: status === 'DELIVERED' ? now : null,
      updatedAt: now,
    })
  const log = () =>
    insertAttemptRow(tx, {
      id: newId('webhookAttempt'),
      deliveryId: delivery.id,
      attempt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      responseBody: result.responseBody,
      errorClass: result.errorClass,
      createdAt: now,
    })

  if (result.ok) {
    if (!(await done('DELIVERED'))) return { outcome: 'skipped', nextAttemptAt: null }
    await log()
    if (endpoint.failingSince !== null) await markEndpointSucceeded(tx, endpoint.id)
    return { outcome: 'delivered', nextAttemptAt: null }
  }
  if (result.errorClass === 'endpoint_disabled') {
    if (!(await done('FAILED'))) return { outcome: 'skipped', nextAttemptAt: null }
    await log()
    return { outcome: 'failed', nextAttemptAt: null }
  }
  const failingSince = await markEndpointFailing(tx, endpoint.id, now)
  if (endpoint.enabled && failingSince && now.getTime() - failingSince.getTime() >= policy.disableAfterMs) {
    if (!(await done('FAILED'))) return { outcome: 'skipped', nextAttemptAt: null }
    await log()
    await disableFailingEndpoint(tx, outbox, claimed, failingSince, now)
    return { outcome: 'failed', nextAttemptAt: null }
  }
  if (attempt >= policy.maxAttempts) {
    if (!(await done('FAILED'))) return { outcome: 'skipped', nextAttemptAt: null }
    await log()
    return { outcome: 'failed', nextAttemptAt: null }
  }
  const nextAttemptAt = new Date(now.getTime() + webhookRetryDelayMs(policy, attempt, result.retryAfterMs))
  const kept = await settleDelivery(tx, delivery.id, leaseUntil, {
    status: 'PENDING',
    attempts: attempt,
    nextAttemptAt,
    deliveredAt: null,
    updatedAt: now,
  })
  if (!kept) return { outcome: 'skipped', nextAttemptAt: null }
  await log()
  return { outcome: 'retrying', nextAttemptAt }
}

/**
 * Every attempt failed for the policy's span (five days): the endpoint is disabled, what waited
 * for it ends FAILED, and `endpoint.disabled` is recorded: sent to the workspace's other endpoints
 * subscribed to it, and entered (FAILED, never sent) in this endpoint's own delivery log.
 */
async function disableFailingEndpoint(
  tx: Tx,
  outbox: Outbox,
  claimed: ClaimedDelivery,
  failingSince: Date,
  now: Date,
): Promise<void> {
  const { endpoint } = claimed
  const reason = `Every delivery attempt failed since ${failingSince.toISOString()}; enable it again once it answers.`
  if (!(await disableEndpoint(tx, endpoint.id, reason, now))) return
  await failPendingDeliveriesOf(tx, endpoint.id, now)
  const record = toEndpointRecord({ ...endpoint, enabled: false, disabledReason: reason, updatedAt: now }, now)
  const eventId = await recordEvent(tx, outbox, {
    workspaceId: endpoint.workspaceId,
    type: 'endpoint.disabled',
    data: { ...record },
    now,
  })
  await insertDeliveryRows(tx, [
    {
      id: newId('webhookDelivery'),
      workspaceId: endpoint.workspaceId,
      eventId,
      endpointId: endpoint.id,
      eventType: 'endpoint.disabled',
      status: 'FAILED',
      nextAttemptAt: null,
      createdAt: now,
      updatedAt: now,
    },
  ])
}

/** Old events a sweep deletes at most. */
const PURGE_BATCH = 1000

/** Deliveries looked at per sweep, and attempted at once. */
const SWEEP_BATCH = 200
const SWEEP_CONCURRENCY = 8

/**
 * The safety net (every minute): due PENDING rows that no trigger reached (a crash between commit
 * and send, a lost QStash message, a retry whose timer died with the process) are attempted now.
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
  const due = await selectDueDeliveries(deps.db, {
    now: deps.clock.now(),
    limit: SWEEP_BATCH,
    workspaceId: scope.workspaceId,
  })
  let next = 0
  let delivered = 0
  const worker = async () => {
    while (next < due.length) {
      const { id } = due[next++]!
      try {
        if ((await deliverWebhook(deps, id)) === 'delivered') delivered++
      } catch (err) {
        deps.logger.error('webhook_sweep_failed', { deliveryId: id, ...describeError(err) })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(SWEEP_CONCURRENCY, due.length) }, worker))
  return { attempted: due.length, delivered, purged }
}
