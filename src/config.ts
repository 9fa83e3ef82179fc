import { z } from 'zod'
import { PLATFORM_IDS } from './domain/vocabulary'
import type { OAuthClient } from './networks/oauth'
import { DEFAULT_NETWORK_ORIGINS, type NetworkOriginKey, type NetworkOrigins } from './networks/origins'

export { DEFAULT_NETWORK_ORIGINS, type NetworkOriginKey, type NetworkOrigins }

/**
 * Configuration, parsed once from an environment record (Worker bindings or process.env).
 * `parseWorkerConfig` and `parseNodeConfig` fail fast with one message naming every missing or invalid key.
 */
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes')

const base64Key = z.string().refine((v) => {
  try {
    return atob(v).length === 32
  } catch {
    return false
  }
}, 'must be 32 bytes, base64-encoded (openssl rand -base64 32)')

/** `CORS_ORIGINS`: a comma-separated list of exact origins (scheme, host, port; no path). */
const corsOrigins = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== ''),
  )
  .pipe(
    z.array(
      z
        .string()
        .regex(/^https?:\/\/[^/?#\s]+$/, 'each origin must be scheme://host[:port], with no path (CORS_ORIGINS)'),
    ),
  )

/**
 * Networks with this service's registered OAuth client (`<ID>_CLIENT_ID` / `<ID>_CLIENT_SECRET`):
 * for hosted connect, and for token refresh where the network renews tokens. `<ID>_USER_AGENT`:
 * the User-Agent sent on every call to that network, where it asks for a descriptive one (the
 * forum network: `<platform>:<app ID>:<version> (by /u/<name>)`).
 */
export const OAUTH_CLIENT_PLATFORMS = [
  'MICROBLOG_NET',
  'SHORTVIDEO_NET',
  'VIDEOSHARE_NET',
  'PINBOARD_NET',
  'PROFESSIONAL_NET',
  'SOCIALGRAPH_NET',
  'PHOTO_NET',
  'TEXTTHREAD_NET',
  'BLOG_NET',
  'LOCAL_NET',
  'WORKCHAT_NET',
  'FORUM_NET',
  'SITE_NET',
] as const
export type OAuthClientPlatform = (typeof OAUTH_CLIENT_PLATFORMS)[number]
export type NetworkClients = Partial<Record<OAuthClientPlatform, OAuthClient>>

const oauthClientKeys = Object.fromEntries(
  OAUTH_CLIENT_PLATFORMS.flatMap((p) => [
    [`${p}_CLIENT_ID`, z.string().optional()],
    [`${p}_CLIENT_SECRET`, z.string().optional()],
    [`${p}_USER_AGENT`, z.string().optional()],
  ]),
) as Record<`${OAuthClientPlatform}_${'CLIENT_ID' | 'CLIENT_SECRET' | 'USER_AGENT'}`, z.ZodOptional<z.ZodString>>

const shared = {
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Public base URL of this service (permalinks of the sandbox network, QStash callbacks). */
  PUBLIC_URL: z.url().optional(),
  /** Largest JSON body accepted, in bytes (413 beyond). */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
  CREDENTIALS_KEY: base64Key.optional(),
  /** Seconds between two inbox syncs of an account on a real network (comments, mentions, imported posts). */
  INBOX_SYNC_INTERVAL_SEC: z.coerce.number().int().min(60).max(86_400).default(900),
  /** Seconds between two inbox syncs of a sandbox account. */
  SANDBOX_SYNC_INTERVAL_SEC: z.coerce.number().int().min(1).max(3600).default(5),
  /**
   * Let the service call private, loopback and link-local addresses and plain http for addresses
   * users give (instanceUrl, webhookUrl...). For tests and local trials only; never in production.
   */
  ALLOW_PRIVATE_URLS: bool.default(false),
  /**
   * Browser origins allowed to call the API (CORS), comma-separated, each exactly as the browser
   * sends it (`https://app.example.com`). Unset or empty: no CORS headers at all.
   */
  CORS_ORIGINS: corsOrigins.default([]),
  /**
   * Where a hosted connect may send the account owner back to (`redirectUrl` of
   * `POST /v1/accounts/connect`): exact origins, comma-separated. Unset: no redirectUrl is accepted
   * and the owner sees our own result page.
   */
  CONNECT_REDIRECT_ORIGINS: corsOrigins.default([]),
  /**
   * `smtp://user:password@host:587` or `smtps://...:465`: notification emails go through this server
   * (Node). Unset: no email is sent; notifications stay in the app.
   */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  /** The sender of notification emails, `Name <address>` or an address. */
  MAIL_FROM: z.string().min(3).max(200).default('Social Publishing <notifications@localhost>'),
  ...oauthClientKeys,
  ...(Object.fromEntries(Object.entries(DEFAULT_NETWORK_ORIGINS).map(([k, v]) => [k, z.url().default(v)])) as {
    [K in NetworkOriginKey]: z.ZodDefault<z.ZodURL>
  }),
}

const nodeSchema = z.object({
  ...shared,
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./.data'),
  /** When set, Node uses this PostgreSQL (through node-postgres; `sslmode` as libpq reads it) instead of the embedded PGlite. */
  DATABASE_URL: z.string().optional(),
  /** With DATABASE_URL: `host:port` of a WebSocket-to-TCP proxy; Node then uses the Worker's Neon driver (to try that driver). */
  NEON_WS_PROXY: z.string().optional(),
  /** Trust `X-Forwarded-For` (the right-most entry) for the client IP: only behind your own proxy. */
  TRUST_PROXY: bool.default(false),
  /**
   * `redis://` or `rediss://` (TLS): rate limits, sign-in limits included, counted in this Redis and
   * so shared by every instance (rate-limiter-flexible over ioredis). Takes precedence over Upstash.
   */
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  /** Prefix of the rate-limit keys in REDIS_URL: deployments sharing one Redis each set their own. */
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('rl'),
  /** Rate limits in Upstash Redis over its REST API (as on Workers), when REDIS_URL is not set. */
  UPSTASH_REDIS_REST_URL: z.url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().optional(),
  /** With S3_ENDPOINT set, media go to that S3-compatible store; else to a local one under DATA_DIR/s3. */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('auto'),
  S3_BUCKET: z.string().default('media'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Public base URL of the bucket's objects; the local store serves them itself. */
  MEDIA_PUBLIC_URL: z.url().optional(),
  /** Port of the local object store (without S3_ENDPOINT); default PORT + 1, or any free port when PORT is 0. */
  LOCAL_S3_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Most publishes the in-process delivery queue runs at once. */
  PUBLISH_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(256),
  /** Most due deliveries the in-process queue claims in one transaction (1: one claim per delivery). */
  PUBLISH_CLAIM_BATCH: z.coerce.number().int().min(1).max(1024).default(16),
  /** Most connections to DATABASE_URL; default from PUBLISH_CONCURRENCY (databasePoolSize). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).optional(),
  /**
   * On the embedded PGlite only (src/infra/admission.ts): requests at work at once (0 turns the bound
   * off), and how long a request may wait before its work starts, for a turn or behind the thread's
   * work (the event loop's lag); past it, 503 with Retry-After. Not applied on DATABASE_URL.
   */
  REQUESTS_IN_FLIGHT_MAX: z.coerce.number().int().min(0).max(10_000).default(8),
  REQUEST_WAIT_MAX_MS: z.coerce.number().int().min(0).max(60_000).default(150),
  /** Seconds between a server's heartbeats in the database (several servers on one database). */
  INSTANCE_HEARTBEAT_SEC: z.coerce.number().min(0.2).max(60).default(2),
  /** A server whose last heartbeat is older than this is dead: a live one takes over its claims and queue. */
  INSTANCE_DEAD_AFTER_SEC: z.coerce.number().min(1).max(3600).default(10),
})

const workerSchema = z.object({
  ...shared,
  /** Required on Workers: QStash delivers publishes to PUBLIC_URL/internal/publish, and signs that URL. */
  PUBLIC_URL: z.url(),
  DATABASE_URL: z.string().min(1),
  /** Local development only: `host:port` of a WebSocket-to-TCP proxy in front of a plain PostgreSQL. */
  NEON_WS_PROXY: z.string().optional(),
  CREDENTIALS_KEY: base64Key,
  UPSTASH_REDIS_REST_URL: z.url(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1),
  QSTASH_URL: z.url().default('https://qstash.upstash.io'),
  QSTASH_TOKEN: z.string().min(1),
  QSTASH_CURRENT_SIGNING_KEY: z.string().min(1),
  QSTASH_NEXT_SIGNING_KEY: z.string().min(1),
  S3_ENDPOINT: z.url(),
  S3_REGION: z.string().default('auto'),
  S3_BUCKET: z.string().min(1),
  S3_ACCESS_KEY_ID: z.string().min(1),
  S3_SECRET_ACCESS_KEY: z.string().min(1),
  /** Public base URL under which stored objects are served (R2 custom domain or r2.dev). */
  MEDIA_PUBLIC_URL: z.url(),
})

export type NodeConfig = z.infer<typeof nodeSchema>
export type WorkerConfig = z.infer<typeof workerSchema>

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Why a key is required, where its name does not say it. Names and reasons only, never values. */
const REQUIRED_HINTS: Record<string, string> = {
  PUBLIC_URL:
    'the base URL this Worker is reached at; QStash delivers publish callbacks to PUBLIC_URL/internal/publish',
}

function parseWith<S extends z.ZodType>(schema: S, env: Record<string, unknown>): z.infer<S> {
  // Empty strings count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '' && v !== undefined))
  const result = schema.safeParse(cleaned)
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((i) => {
        const key = i.path.join('.') || '(root)'
        const hint = REQUIRED_HINTS[key] ? ` (${REQUIRED_HINTS[key]})` : ''
        return `${key}: ${i.code === 'invalid_type' && i.input === undefined ? `is required${hint}` : i.message}`
      }),
    )
  }
  return result.data
}

export const parseNodeConfig = (env: Record<string, unknown>): NodeConfig => parseWith(nodeSchema, env)
export const parseWorkerConfig = (env: Record<string, unknown>): WorkerConfig => parseWith(workerSchema, env)

export function networkOrigins(config: Record<NetworkOriginKey, string>): NetworkOrigins {
  return Object.fromEntries(
    Object.keys(DEFAULT_NETWORK_ORIGINS).map((k) => [k, config[k as NetworkOriginKey]]),
  ) as NetworkOrigins
}

/** The OAuth clients configured for token refresh; a platform without one cannot renew its tokens. */
export function networkClients(config: Partial<Record<string, unknown>>): NetworkClients {
  const clients: NetworkClients = {}
  for (const p of OAUTH_CLIENT_PLATFORMS) {
    const id = config[`${p}_CLIENT_ID`]
    const secret = config[`${p}_CLIENT_SECRET`]
    const userAgent = config[`${p}_USER_AGENT`]
    if (typeof id === 'string' && id)
      clients[p] = {
        clientId: id,
        clientSecret: typeof secret === 'string' && secret ? secret : null,
        ...(typeof userAgent === 'string' && userAgent ? { userAgent } : {}),
      }
  }
  return clients
}

export { PLATFORM_IDS }
