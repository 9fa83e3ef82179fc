/**
 * Node's in-process delivery queues (publishes and webhook attempts), for the server and the CLI:
 * made before the deps, bound to the engine's and the webhook worker's functions once they exist.
 */
import type { NodeConfig } from '../config'
import type { Clock } from '../infra/clock'
import type { Logger } from '../infra/logger'
import { createInProcessPublishQueue } from '../infra/publish-queue/in-process'
import type { Delivery } from '../infra/publish-queue/types'
import { createInProcessWebhookQueue } from '../infra/webhook-queue/in-process'
import { strandedDeliveries, watchedRuns } from '../services/publishing/stranded'
import type { WebhookDeliverer } from '../services/webhooks/deliver'

/**
 * Node's in-process delivery queue, bound to the engine's publish functions once the deps exist:
 * due deliveries are claimed in batches of PUBLISH_CLAIM_BATCH (1: one claim per delivery).
 */
export function inProcessQueue(config: NodeConfig, { logger, clock }: { logger: Logger; clock: Clock }) {
  type Publish = (delivery: Delivery) => Promise<unknown>
  type PublishBatch = (deliveries: Delivery[]) => Array<Promise<unknown>>
  let publish: Publish = async () => {
    throw new Error('the publish queue ran before the deps were built')
  }
  let publishBatch: PublishBatch = (deliveries) => deliveries.map((d) => publish(d))
  const batched = config.PUBLISH_CLAIM_BATCH > 1
  const queue = createInProcessPublishQueue({
    run: (d) => publish(d),
    ...(batched ? { runBatch: (ds: Delivery[]) => publishBatch(ds), batchSize: config.PUBLISH_CLAIM_BATCH } : {}),
    concurrency: config.PUBLISH_CONCURRENCY,
    logger,
    clock,
  })
  // Each delivery that fails as the database goes away is noted, to be resolved once it answers again.
  const stranded = strandedDeliveries()
  const bind = (run: Publish, runBatch: PublishBatch) => {
    const watched = watchedRuns(stranded, run, runBatch)
    publish = watched.run
    publishBatch = watched.runBatch
    return queue
  }
  return { queue, bind, stranded }
}

/** Node's in-process webhook queue, bound to the delivery worker once the deps exist: due attempts claimed in batches. */
export function inProcessWebhooks({ logger, clock }: { logger: Logger; clock: Clock }) {
  let deliver: WebhookDeliverer['deliver'] = () => {
    throw new Error('the webhook queue ran before the deps were built')
  }
  const queue = createInProcessWebhookQueue({
    run: (id) => deliver([id])[0]!,
    runBatch: (ids) => deliver(ids),
    logger,
    clock,
  })
  const bind = (run: typeof deliver) => {
    deliver = run
    return queue
  }
  return { queue, bind }
}
