/**
 * The results of finished attempts, written together: the attempts that finish while the previous
 * group is being written go in one transaction (`settleAttempts`: a few statements for the whole
 * group), then their follow-ups after the commit (the events it recorded handed to the queue, each
 * retry enqueued at its time). Each caller learns its delivery's outcome once its group is committed.
 */
import type { Deps } from '../../deps'
import type { WebhookPolicy } from '../../domain/webhooks/policy'
import { describeError } from '../../infra/logger'
import { newOutbox, sendOutbox } from './outbox'
import { type FinishedAttempt, type Settled, settleAttempts, type WebhookOutcome } from './settle'

type WriterDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'webhookQueue'>

interface Waiting {
  item: FinishedAttempt
  resolve: (outcome: WebhookOutcome) => void
  reject: (err: unknown) => void
}

export type ResultWriter = (item: FinishedAttempt) => Promise<WebhookOutcome>

export function resultWriter(deps: WriterDeps, policy: WebhookPolicy): ResultWriter {
  let waiting: Waiting[] = []
  let busy = false
  const flush = () => {
    const group = waiting
    waiting = []
    if (group.length === 0) {
      busy = false
      return
    }
    write(
      deps,
      policy,
      group.map((w) => w.item),
    )
      .then(
        (settled) => group.forEach((w, i) => w.resolve(settled[i]!.outcome)),
        (err: unknown) => group.forEach((w) => w.reject(err)),
      )
      .finally(flush)
  }
  return (item) =>
    new Promise<WebhookOutcome>((resolve, reject) => {
      waiting.push({ item, resolve, reject })
      if (busy) return
      busy = true
      // The attempts that finish in the same turn of the event loop go together.
      setTimeout(flush, 0)
    })
}

async function write(deps: WriterDeps, policy: WebhookPolicy, items: FinishedAttempt[]): Promise<Settled[]> {
  const outbox = newOutbox()
  const now = deps.clock.now()
  const settled = await deps.db.transaction((tx) => settleAttempts(tx, outbox, policy, items, now))
  await sendOutbox(deps, outbox)
  const retries = items.flatMap((item, i) => {
    const { outcome, nextAttemptAt } = settled[i]!
    return outcome === 'retrying' && nextAttemptAt
      ? [{ deliveryId: item.claimed.delivery.id, endpointId: item.claimed.endpoint.id, notBefore: nextAttemptAt }]
      : []
  })
  if (retries.length > 0)
    await deps.webhookQueue
      .enqueue(retries)
      .catch((err: unknown) => deps.logger.warn('webhook_enqueue_failed', describeError(err)))
  items.forEach((item, i) => {
    const { outcome } = settled[i]!
    if (outcome === 'delivered') return
    deps.logger.info('webhook_attempt', {
      deliveryId: item.claimed.delivery.id,
      endpointId: item.claimed.endpoint.id,
      attempt: item.claimed.delivery.attempts + 1,
      status: item.result.statusCode,
      errorClass: item.result.errorClass,
      outcome,
    })
  })
  return settled
}
