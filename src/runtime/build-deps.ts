import type { Deps } from '../deps'
import { createStrengthEstimator } from '../domain/password-strength'
import { systemClock } from '../infra/clock'
import type { Delivery, PublishQueue } from '../infra/publish-queue/types'
import type { ResolveHost } from '../networks/outbound'
import type { OpenSocket } from '../networks/sockets'
import type { NetworkRegistry } from '../networks/registry'
import { type BatchPublisher, batchPublisher } from '../services/publishing/publish-batch'
import { publishTarget } from '../services/publishing/publish-target'
import { createInProcessWebhookQueue } from '../infra/webhook-queue/in-process'
import type { WebhookQueue } from '../infra/webhook-queue/types'
import { webhookDeliverer, type WebhookDeliverer } from '../services/webhooks/deliver'
import { buildNetworkRegistry } from './networks'

/** What a runtime makes itself (its clients), and the settings read from its configuration. */
export interface DepsParts extends Pick<Deps, 'settings' | 'db' | 'cipher' | 'logger' | 'rateLimiter' | 'storage'> {
  imageCodecs: Deps['imageCodecs']
  docsAssets: Deps['docsAssets']
  /**
   * Delayed delivery of publishes. Given as a function when the queue runs the publishes itself
   * (Node's in-process queue): it receives the publish functions of the finished deps (one delivery,
   * and a batch: `batchPublisher`).
   */
  publishQueue:
    | PublishQueue
    | ((
        publish: (delivery: Delivery) => Promise<unknown>,
        publishBatch: (deliveries: Delivery[]) => Array<Promise<unknown>>,
      ) => PublishQueue)
  deliveryVerifier?: Deps['deliveryVerifier']
  /** Inbox syncs handed to QStash (the Worker); absent: a pass syncs its accounts in process. */
  syncQueue?: Deps['syncQueue']
  /**
   * Webhook attempts: a queue, or a function given the delivery function of the finished deps
   * (Node's in-process queue). Absent: an in-process queue (tests, benchmarks, the CLI).
   */
  webhookQueue?: WebhookQueue | ((deliver: WebhookDeliverer['deliver']) => WebhookQueue)
  /**
   * All addresses of a host name, for the outbound guard's check after DNS (networks/outbound.ts):
   * node:dns on Node; absent on Workers, which have no DNS API.
   */
  resolveHost?: ResolveHost
  /** Opens a WebSocket for the relay network (networks/sockets.ts): `ws` on Node, the global one on Workers. */
  openSocket?: OpenSocket
  /**
   * The password strength estimator, when the caller keeps one across deps: a Worker isolate builds
   * deps per request and loads the dictionaries once; tests share one per file. Absent: a new one.
   */
  passwordStrength?: Deps['passwordStrength']
  /** The notifications' mailer (Node with SMTP_URL); absent: none, and emails wait in the outbox. */
  mailer?: Deps['mailer']
}

/** What tests and benchmarks replace: the clock, the network adapters, or the fetch the adapters use. */
export interface DepsOverrides {
  clock?: Deps['clock']
  networks?: NetworkRegistry | ((parts: DepsParts) => NetworkRegistry)
  fetch?: typeof fetch
}

/**
 * The one place a `Deps` is assembled, for the Node entry, the Worker, the CLI, the tests and the
 * benchmarks. The result is frozen (and its fields readonly): what differs between uses is given here.
 */
export function buildDeps(parts: DepsParts, overrides: DepsOverrides = {}): Deps {
  const {
    publishQueue,
    deliveryVerifier,
    syncQueue,
    resolveHost,
    openSocket,
    webhookQueue,
    passwordStrength,
    mailer,
    ...clients
  } = parts
  const networks =
    typeof overrides.networks === 'function'
      ? overrides.networks(parts)
      : (overrides.networks ??
        buildNetworkRegistry(parts.db, parts.settings, overrides.fetch, {
          resolveHost,
          storage: parts.storage,
          openSocket,
        }))
  // One batch publisher for the queue's batches: results of a post in different batches share a transaction.
  let publishBatch: BatchPublisher | undefined
  // One webhook worker for the queue's batches: its bounds and its result writer span them.
  let webhooks: WebhookDeliverer | undefined
  const clock = overrides.clock ?? systemClock()
  const deps: Deps = Object.freeze({
    ...clients,
    clock,
    networks,
    passwordStrength: passwordStrength ?? createStrengthEstimator(),
    mailer: mailer ?? null,
    // The in-process queue calls back into the engine with these same deps, once they exist.
    publishQueue:
      typeof publishQueue === 'function'
        ? publishQueue(
            (d) => publishTarget(deps, d),
            (ds) => (publishBatch ??= batchPublisher(deps))(ds),
          )
        : publishQueue,
    webhookQueue:
      typeof webhookQueue === 'object'
        ? webhookQueue
        : (webhookQueue ?? defaultWebhookQueue(parts.logger, clock))((ids) =>
            (webhooks ??= webhookDeliverer(deps)).deliver(ids),
          ),
    ...(deliveryVerifier ? { deliveryVerifier } : {}),
    ...(syncQueue ? { syncQueue } : {}),
  })
  return deps
}

const defaultWebhookQueue =
  (logger: Deps['logger'], clock: Deps['clock']) =>
  (deliver: WebhookDeliverer['deliver']): WebhookQueue =>
    createInProcessWebhookQueue({ run: (id) => deliver([id])[0]!, runBatch: deliver, logger, clock })
