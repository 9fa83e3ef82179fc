import { Receiver, type Client } from '@upstash/qstash'
import type { PublishCallbackBody } from '../../domain/delivery-callbacks'
import { deliveryId, type Delivery, type DeliveryVerifier, type PublishQueue } from './types'

export { PUBLISH_CALLBACK_PATH, publishCallbackUrl, type PublishCallbackBody } from '../../domain/delivery-callbacks'

export interface QStashPublishQueueOptions {
  /** An `@upstash/qstash` Client (fetch-based: runs in workerd and Node). Only `batchJSON` is used. */
  client: Pick<Client, 'batchJSON'>
  /** The public URL QStash calls back, from `publishCallbackUrl(PUBLIC_URL)`. */
  callbackUrl: string
  /** QStash's own delivery retries per message (`Upstash-Retries`); the plan's maximum when unset. */
  retries?: number
  /** Messages per `POST /v2/batch` request (default 100). */
  batchSize?: number
  /** Batch requests in flight at once (default 4). */
  parallelBatches?: number
}

/** Runs `task` over every item with at most `limit` in flight, stopping at the first failure. */
async function forEachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < items.length) {
      try {
        await task(items[next++]!)
      } catch (err) {
        failed = true
        throw err
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/**
 * Delayed delivery through QStash: each delivery becomes one message to `callbackUrl` with body
 * `{ targetId, version }`, `Upstash-Not-Before` (epoch seconds, rounded up so it never arrives
 * early) and `Upstash-Deduplication-Id` `<targetId>-v<version>-a<attempt>-t<notBefore>`, so enqueuing
 * the same delivery again (a retried request, a start-up requeue) is accepted once. A sweep's
 * re-dispatch of a target nothing claimed (`redispatchedAt`) gets `-r<time>` more: QStash keeps
 * the ids of delivered messages, and the first delivery was answered "skipped".
 *
 * Messages go out through the batch endpoint, up to `batchSize` per request: a bulk post with
 * thousands of targets costs a few dozen subrequests of the Worker, not thousands. QStash answers a
 * batch with one result per message and may refuse some of them; `enqueue` then rejects, naming how
 * many were refused (the accepted ones stay queued, and re-enqueuing is de-duplicated).
 */
export function createQStashPublishQueue(options: QStashPublishQueueOptions): PublishQueue {
  const { client, callbackUrl, retries } = options
  const batchSize = options.batchSize ?? 100
  const parallelBatches = options.parallelBatches ?? 4

  const message = (d: Delivery) => {
    const notBeforeMs = d.notBefore.getTime()
    if (!Number.isFinite(notBeforeMs)) throw new TypeError('Every delivery needs a valid notBefore date.')
    const body: PublishCallbackBody = { targetId: d.targetId, version: d.version }
    return {
      url: callbackUrl,
      body,
      notBefore: Math.ceil(notBeforeMs / 1000),
      deduplicationId: d.redispatchedAt ? `${deliveryId(d)}-r${d.redispatchedAt.getTime()}` : deliveryId(d),
      ...(retries !== undefined ? { retries } : {}),
    }
  }

  return {
    async enqueue(deliveries) {
      const messages = deliveries.map(message)
      const batches: Array<typeof messages> = []
      for (let i = 0; i < messages.length; i += batchSize) batches.push(messages.slice(i, i + batchSize))
      let refused = 0
      await forEachLimited(batches, parallelBatches, async (batch) => {
        const results: unknown[] = await client.batchJSON(batch)
        refused +=
          batch.length -
          results.filter((r) => typeof (r as { messageId?: unknown } | null)?.messageId === 'string').length
      })
      if (refused > 0) throw new Error(`QStash refused ${refused} of ${messages.length} deliveries.`)
    },
  }
}

/**
 * Verifies `Upstash-Signature` with QStash's own Receiver; a token signed with the next key passes
 * too (key rotation). Dev mode is forced off: it would swap in QStash's fixed development keys.
 */
export function createQStashVerifier(keys: { currentSigningKey: string; nextSigningKey: string }): DeliveryVerifier {
  const receiver = new Receiver({ ...keys, devMode: false })
  return {
    async verify(signature, body, url) {
      try {
        return await receiver.verify({ signature, body, url })
      } catch {
        // A bad signature, body hash, subject, issuer or expiry: all are "not from QStash".
        return false
      }
    },
  }
}
