import { appOptions, createApp } from '../../src/app'
import { DEFAULT_NETWORK_ORIGINS, type NetworkClients, type NetworkOrigins } from '../../src/config'
import type { Deps } from '../../src/deps'
import { createStrengthEstimator, type StrengthEstimator } from '../../src/domain/password-strength'
import type { PublishPolicy } from '../../src/domain/publishing/policy'
import type { Clock } from '../../src/infra/clock'
import { createCredentialCipher, generateCredentialsKey } from '../../src/infra/credential-cipher'
import { createLogger } from '../../src/infra/logger'
import { createRecordingPublishQueue, type RecordingPublishQueue } from '../../src/infra/publish-queue/recording'
import type { DeliveryVerifier, PublishQueue } from '../../src/infra/publish-queue/types'
import { createMemoryRateLimiter } from '../../src/infra/ratelimit/memory'
import type { RateLimiter } from '../../src/infra/ratelimit/types'
import { createRedisRateLimiter } from '../../src/infra/ratelimit/redis'
import type { ImageCodecs } from '../../src/media/codecs'
import { nodeImageCodecs } from '../../src/media/codecs-node'
import { randomBase62 } from '../../src/lib/ids'
import { nodeClientIp } from '../../src/runtime/client-ip'
import { buildDeps, type DepsOverrides, type DepsParts } from '../../src/runtime/build-deps'
import { nodeResolveHost } from '../../src/runtime/node-settings'
import { nodeOpenSocket } from '../../src/runtime/node-socket'
import { nodeDocsAssets } from '../../src/runtime/node-docs-assets'
import type { ResolveHost } from '../../src/networks/outbound'
import { createToken } from '../../src/services/tokens'
import { createWorkspace } from '../../src/services/workspace/workspaces'
import { testDatabase } from './database'
import { testRedis } from './redis'
import { testStorage } from './storage'

/** Compiled once per test file (compiled WebAssembly modules are immutable). */
let imageCodecs: ImageCodecs | null = null
/** One per test file: its dictionaries load on the file's first password set, not each app's. */
let passwordStrength: StrengthEstimator | null = null

/** A Response whose JSON tests read without casts. */
export interface TestResponse extends Response {
  json(): Promise<any>
}

export interface TestApp {
  app: ReturnType<typeof createApp>
  deps: Deps
  workspaceId: string
  token: string
  /** The client address this app's requests come from (each test app has its own rate-limit bucket). */
  ip: string
  /** `deps.publishQueue`: records deliveries; a test runs the due ones itself (`takeDue`). */
  publishQueue: RecordingPublishQueue
  call(
    method: string,
    path: string,
    init?: { body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<TestResponse>
}

/**
 * The rate limiter of the run: rate-limiter-flexible over ioredis when the run has Redis (as
 * `npm start` with REDIS_URL), each app with keys of its own, else in memory. The in-memory one reads
 * the test's clock, or with none the moment the app was made, so a test counting requests never
 * straddles a window boundary; tests on Redis's real clock wait for room in the current minute
 * (support/minute.ts).
 */
function testRateLimiter(clock: Clock | undefined, key: string): RateLimiter {
  const shared = testRedis()
  if (shared) {
    return createRedisRateLimiter(shared.redis, {
      prefix: `${shared.prefix}:${key}`,
      onError: (error) => {
        throw error
      },
    })
  }
  const frozen = Date.now()
  return createMemoryRateLimiter({ now: () => (clock ? clock.now().getTime() : frozen) })
}

export const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`

/** A fresh workspace with a token, and the app over the run's real services. */
export interface TestAppOptions {
  plan?: 'free' | 'pro' | 'agency'
  timezone?: string
  clock?: Clock
  logLines?: string[]
  /** Where the real adapters talk to (a fake's URL per `<PLATFORM_ID>_API_URL`), and their OAuth clients. */
  networks?: { origins?: Partial<NetworkOrigins>; clients?: NetworkClients }
  /** The engine's retry and lease policy (deterministic jitter, short backoffs). */
  publishing?: Partial<PublishPolicy>
  /** Adapters of the test's own instead of the real ones, made over the run's database. */
  networkRegistry?: DepsOverrides['networks']
  /** A delivery queue of the test's own instead of the recording one. */
  publishQueue?: PublishQueue
  /** Where users reach the service (sandbox permalinks, signed callback URLs); default http://localhost. */
  publicUrl?: string
  /** The publish callbacks' signature check, as on Workers (absent: `/internal/publish` answers 404). */
  deliveryVerifier?: DeliveryVerifier
  /** Replaces clients before the deps are built (a broken database, tripwires). */
  parts?: (parts: DepsParts) => DepsParts
  /**
   * ALLOW_PRIVATE_URLS: true by default, since the fakes listen on loopback; false to see the
   * outbound guard refuse (networks/outbound.ts).
   */
  allowPrivateUrls?: boolean
  /** The outbound guard's DNS lookup; default node:dns, as on the Node runtime. */
  resolveHost?: ResolveHost
  /** The fetch the network adapters use (under the outbound guard); default the global fetch. */
  fetch?: typeof fetch
  /** CONNECT_REDIRECT_ORIGINS: where hosted connect may send the owner back to. */
  connectRedirectOrigins?: string[]
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { db } = await testDatabase()
  const { storage } = await testStorage()
  const recording = createRecordingPublishQueue()
  const parts: DepsParts = {
    settings: {
      maxBodyBytes: 1_048_576,
      publicUrl: options.publicUrl ?? 'http://localhost',
      networkOrigins: { ...DEFAULT_NETWORK_ORIGINS, ...options.networks?.origins },
      networkClients: options.networks?.clients ?? {},
      allowPrivateUrls: options.allowPrivateUrls ?? true,
      connectRedirectOrigins: options.connectRedirectOrigins ?? [],
      ...(options.publishing ? { publishing: options.publishing } : {}),
    },
    db,
    rateLimiter: testRateLimiter(options.clock, randomBase62(10)),
    cipher: await createCredentialCipher(generateCredentialsKey()),
    logger: createLogger(options.logLines ? 'debug' : 'silent', (line) => options.logLines?.push(line)),
    storage,
    imageCodecs: (imageCodecs ??= nodeImageCodecs()),
    passwordStrength: (passwordStrength ??= createStrengthEstimator()),
    docsAssets: nodeDocsAssets(),
    publishQueue: options.publishQueue ?? recording,
    resolveHost: options.resolveHost ?? nodeResolveHost,
    openSocket: nodeOpenSocket,
    ...(options.deliveryVerifier ? { deliveryVerifier: options.deliveryVerifier } : {}),
  }
  const deps = buildDeps(options.parts ? options.parts(parts) : parts, {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.networkRegistry ? { networks: options.networkRegistry } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  })
  const workspace = await createWorkspace(db, {
    name: 'Test workspace',
    planId: options.plan ?? 'pro',
    timezone: options.timezone ?? 'UTC',
  })
  const { token } = await createToken(db, workspace.id, 'test')
  const app = createApp(appOptions(deps, nodeClientIp(true)))
  const ip = randomIp()
  return {
    app,
    deps,
    publishQueue: recording,
    workspaceId: workspace.id,
    token,
    ip,
    async call(method, path, init = {}) {
      const headers: Record<string, string> = { 'x-forwarded-for': ip, ...init.headers }
      const bearer = init.token === undefined ? token : init.token
      if (bearer !== null) headers.authorization = `Bearer ${bearer}`
      let body: string | undefined
      if (init.body !== undefined) {
        body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
        headers['content-type'] ??= 'application/json'
      }
      return (await app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) })) as TestResponse
    },
  }
}
