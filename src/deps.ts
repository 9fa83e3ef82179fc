import type { NetworkClients, NetworkOrigins } from './config'
import type { Db } from './db/types'
import type { Clock } from './infra/clock'
import type { DocsAssets } from './infra/docs-assets'
import type { CredentialCipher } from './infra/credential-cipher'
import type { Logger } from './infra/logger'
import type { DeliveryVerifier, PublishQueue } from './infra/publish-queue/types'
import type { RateLimiter } from './infra/ratelimit/types'
import type { ObjectStorage } from './infra/storage/types'
import type { ImageCodecs } from './media/codecs'
import type { NetworkRegistry } from './networks/registry'
import type { PublishPolicy } from './domain/publishing/policy'
import type { StrengthEstimator } from './domain/password-strength'
import type { WebhookPolicy } from './domain/webhooks/policy'
import type { EventStreamPolicy } from './domain/webhooks/event-stream'
import type { InboxSyncPolicy } from './domain/inbox-sync-policy'
import type { WebhookQueue } from './infra/webhook-queue/types'
import type { SyncQueue } from './infra/sync-queue/types'
import type { Mailer } from './infra/mailer/types'

/** Settings the app reads at request time (a subset of either runtime's configuration). */
export interface AppSettings {
  readonly maxBodyBytes: number
  /** Base URL of this service as users reach it (permalinks of the sandbox network, callbacks). */
  readonly publicUrl: string | null
  readonly networkOrigins: NetworkOrigins
  /** OAuth clients of the networks whose token refresh needs one. */
  readonly networkClients?: NetworkClients
  /**
   * ALLOW_PRIVATE_URLS: addresses users give may be private, loopback or plain http (tests, local
   * trials). Absent or false: refused (networks/outbound.ts).
   */
  readonly allowPrivateUrls?: boolean
  /** CORS_ORIGINS: the browser origins allowed to call the API; absent or empty, no CORS headers (http/cors.ts). */
  readonly corsOrigins?: readonly string[]
  /** CONNECT_REDIRECT_ORIGINS: the origins a hosted connect may send the owner back to (no open redirect). */
  readonly connectRedirectOrigins?: readonly string[]
  /**
   * Who holds the claims this process makes: `<instance>/<boot>` on Node (the instance id is kept
   * under DATA_DIR, so a restarted process knows its earlier boots' claims are orphaned); absent on Workers.
   */
  readonly leaseHolder?: string
  /**
   * Media from a URL (`POST /v1/media` with `sourceUrl`, services/media/from-url.ts): the fetch's
   * time limit (default 30 s) and size cap (default the upload cap); lowered by tests.
   */
  readonly mediaFromUrl?: { readonly timeoutMs?: number; readonly maxSizeBytes?: number }
  /**
   * A ceiling on every network call's deadline (networks/http.ts: 30 s, media 120 s); absent, those
   * apply. Not configured by the environment: tests lower it so a stalled network costs no real 30 s.
   */
  readonly networkDeadlineCapMs?: number
  /** Retry and lease policy of the publishing engine; defaults in domain/publishing/policy.ts. */
  readonly publishing?: Partial<PublishPolicy>
  /** Retry, timeout and disable policy of webhook deliveries; defaults in domain/webhooks/policy.ts. */
  readonly webhooks?: Partial<WebhookPolicy>
  /** Intervals, backoff and per-pass limits of the inbox sync; defaults in domain/inbox-sync-policy.ts. */
  readonly inboxSync?: Partial<InboxSyncPolicy>
  /** Heartbeat, polling, lifetime and per-workspace cap of `GET /v1/events/stream`; defaults in domain/webhooks/event-stream.ts. */
  readonly eventStream?: Partial<EventStreamPolicy>
}

/**
 * Everything the app needs from the outside world. Each runtime makes its clients in src/runtime/
 * (`worker-deps.ts`, `node-deps.ts`, `cli-deps.ts`) and `buildDeps` (`runtime/build-deps.ts`) assembles them; nothing changes it after.
 */
export interface Deps {
  readonly settings: AppSettings
  readonly db: Db
  readonly rateLimiter: RateLimiter
  readonly cipher: CredentialCipher
  readonly logger: Logger
  readonly clock: Clock
  /** Media objects: R2 on Workers, an S3 endpoint or the local store on Node. */
  readonly storage: ObjectStorage
  /** WebAssembly codecs of the variants pipeline. */
  readonly imageCodecs: ImageCodecs
  /** The browser files of the interactive reference at `/docs`, served by the app itself. */
  readonly docsAssets: DocsAssets
  /** Delayed delivery of publishes: QStash on Workers, in process on Node. */
  readonly publishQueue: PublishQueue
  /**
   * Checks the signature of publish callbacks (`POST /internal/publish`): QStash's keys on Workers;
   * absent on Node, where that route answers 404.
   */
  readonly deliveryVerifier?: DeliveryVerifier
  /** Webhook attempts right after the commit that wrote them: QStash on Workers, in process on Node. */
  readonly webhookQueue: WebhookQueue
  /**
   * Inbox sync hand-over: QStash on Workers (each due account synced by its own signed callback,
   * `POST /internal/inbox-sync`); absent on Node, where a pass syncs its accounts itself.
   */
  readonly syncQueue?: SyncQueue
  /** The network adapters, and where each one talks to. */
  readonly networks: NetworkRegistry
  /**
   * The strength estimate of the password rule (domain/password-policy.ts): its dictionaries load
   * on the first password set and stay with it.
   */
  readonly passwordStrength: StrengthEstimator
  /**
   * Email of notifications: SMTP through nodemailer on Node when SMTP_URL is set; null otherwise
   * and on Workers, where the outbox rows wait (docs/notifications.md).
   */
  readonly mailer: Mailer | null
}
