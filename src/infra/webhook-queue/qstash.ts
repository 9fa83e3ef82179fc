import type { Client } from '@upstash/qstash'
import type { WebhookCallbackBody } from '../../domain/delivery-callbacks'
import { webhookDueId, type WebhookQueue } from './types'

/**
 * Webhook attempts through QStash (the Worker): one message per attempt to `callbackUrl`, signed by
 * QStash and checked by the same verifier as the publish callback, `Upstash-Not-Before` at its due
 * time and de-duplicated per (delivery, due time). Retries are ours (the outbox), not QStash's.
 */
export function createQStashWebhookQueue(options: {
  client: Pick<Client, 'batchJSON'>
  callbackUrl: string
}): WebhookQueue {
  return {
    async enqueue(items) {
      if (items.length === 0) return
      for (let i = 0; i < items.length; i += 100) {
        await options.client.batchJSON(
          items.slice(i, i + 100).map((item) => ({
            url: options.callbackUrl,
            body: { deliveryId: item.deliveryId } satisfies WebhookCallbackBody,
            notBefore: Math.ceil(item.notBefore.getTime() / 1000),
            deduplicationId: webhookDueId(item),
            retries: 0,
          })),
        )
      }
    },
  }
}
