/**
 * Settling attempts: the attempt rows, and each delivery moved on (DELIVERED, PENDING at its next
 * time, or FAILED), for many attempts in one transaction and a few statements. A delivery whose
 * claim is no longer ours (its lease ran out and another worker took it) is left alone and its
 * attempt is not recorded.
 */
import { disableEndpoint } from '../../db/queries/webhook-endpoints'
import {
  type DeliverySettlement,
  insertAttemptRows,
  markEndpointsFailing,
  markEndpointsSucceeded,
  settleDeliveries,
} from '../../db/queries/webhook-claims'
import { type ClaimedDelivery, failPendingDeliveriesOf, insertDeliveryRows } from '../../db/queries/webhook-outbox'
import type { Tx } from '../../db/types'
import { webhookRetryDelayMs, type WebhookPolicy } from '../../domain/webhooks/policy'
import { newId } from '../../lib/ids'
import type { AttemptResult } from './attempt'
import { toEndpointRecord } from './endpoints'
import { recordAdminActivity } from '../activity/admin'
import { systemCaller } from '../caller'
import { recordEvent, type Outbox } from './outbox'

export type WebhookOutcome = 'delivered' | 'retrying' | 'failed' | 'skipped'

/** One finished attempt: the claimed delivery, the lease it was claimed under, and what came back. */
export interface FinishedAttempt {
  claimed: ClaimedDelivery
  leaseUntil: Date
  result: AttemptResult
}

export interface Settled {
  outcome: WebhookOutcome
  nextAttemptAt: Date | null
}

type Decision = { outcome: Exclude<WebhookOutcome, 'skipped'>; row: DeliverySettlement; disable: boolean }

/** What each attempt makes of its delivery, given when its endpoint began failing. */
function decide(policy: WebhookPolicy, item: FinishedAttempt, failingSince: Date | undefined, now: Date): Decision {
  const { delivery, endpoint } = item.claimed
  const attempts = delivery.attempts + 1
  const row = (status: DeliverySettlement['status'], nextAttemptAt: Date | null = null): DeliverySettlement => ({
    id: delivery.id,
    claimedUntil: item.leaseUntil,
    status,
    attempts,
    nextAttemptAt,
    deliveredAt: status === 'DELIVERED' ? now : null,
    updatedAt: now,
  })
  const { result } = item
  if (result.ok) return { outcome: 'delivered', row: row('DELIVERED'), disable: false }
  if (result.errorClass === 'endpoint_disabled') return { outcome: 'failed', row: row('FAILED'), disable: false }
  if (endpoint.enabled && failingSince && now.getTime() - failingSince.getTime() >= policy.disableAfterMs)
    return { outcome: 'failed', row: row('FAILED'), disable: true }
  if (attempts >= policy.maxAttempts) return { outcome: 'failed', row: row('FAILED'), disable: false }
  const next = new Date(now.getTime() + webhookRetryDelayMs(policy, attempts, result.retryAfterMs))
  return { outcome: 'retrying', row: row('PENDING', next), disable: false }
}

const failedAttempt = (item: FinishedAttempt) => !item.result.ok && item.result.errorClass !== 'endpoint_disabled'

/**
 * Records the attempts and moves their deliveries on, in the caller's transaction: the failing
 * endpoints marked first (when their failures began decides a disabling), then every delivery in
 * one statement (only while its claim is ours), the attempts of those written in one insert, the
 * endpoints that answered cleared of failing, and an endpoint that failed for the policy's span
 * disabled. One outcome per attempt, in order.
 */
export async function settleAttempts(
  tx: Tx,
  outbox: Outbox,
  policy: WebhookPolicy,
  items: FinishedAttempt[],
  now: Date,
): Promise<Settled[]> {
  const failing = await markEndpointsFailing(
    tx,
    [...new Set(items.filter(failedAttempt).map((i) => i.claimed.endpoint.id))],
    now,
  )
  const decisions = items.map((item) => decide(policy, item, failing.get(item.claimed.endpoint.id), now))
  const written = await settleDeliveries(
    tx,
    decisions.map((d) => d.row),
  )
  const mine = items.filter((item) => written.has(item.claimed.delivery.id))
  await insertAttemptRows(
    tx,
    mine.map((item) => ({
      id: newId('webhookAttempt'),
      deliveryId: item.claimed.delivery.id,
      attempt: item.claimed.delivery.attempts + 1,
      statusCode: item.result.statusCode,
      durationMs: item.result.durationMs,
      responseBody: item.result.responseBody,
      errorClass: item.result.errorClass,
      createdAt: now,
    })),
  )
  const answered = mine.filter((i) => i.result.ok && i.claimed.endpoint.failingSince !== null)
  await markEndpointsSucceeded(tx, [...new Set(answered.map((i) => i.claimed.endpoint.id))])
  const disabling = new Map<string, FinishedAttempt>()
  items.forEach((item, i) => {
    if (decisions[i]!.disable && written.has(item.claimed.delivery.id)) disabling.set(item.claimed.endpoint.id, item)
  })
  for (const item of disabling.values())
    await disableFailingEndpoint(tx, outbox, item.claimed, failing.get(item.claimed.endpoint.id)!, now)
  return items.map((item, i) =>
    written.has(item.claimed.delivery.id)
      ? { outcome: decisions[i]!.outcome, nextAttemptAt: decisions[i]!.row.nextAttemptAt }
      : { outcome: 'skipped', nextAttemptAt: null },
  )
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
  await recordAdminActivity(tx, systemCaller(endpoint.workspaceId), {
    action: 'webhook.disabled',
    subject: { type: 'webhook_endpoint', id: endpoint.id },
    words: `turned off the webhook endpoint ${endpoint.url} (${endpoint.id}): ${reason}`,
    details: { url: endpoint.url, reason },
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
