import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'

/**
 * Harmless values for the Worker bindings the smoke test never reaches (parseWorkerConfig requires
 * them). Nothing listens on these addresses.
 */
export const STATIC_TEST_BINDINGS = {
  LOG_LEVEL: 'warn',
  CREDENTIALS_KEY: Buffer.alloc(32, 0x5a).toString('base64'),
  S3_ENDPOINT: 'http://127.0.0.1:9/s3',
  S3_REGION: 'auto',
  S3_BUCKET: 'media-test',
  S3_ACCESS_KEY_ID: 'test-access-key-id',
  S3_SECRET_ACCESS_KEY: 'test-secret-access-key',
  MEDIA_PUBLIC_URL: 'http://127.0.0.1:9/media',
  PUBLIC_URL: 'http://127.0.0.1:8787',
  // The tests' fakes listen on loopback.
  ALLOW_PRIVATE_URLS: 'true',
}

/**
 * `vitest run --config vitest.worker.config.ts`: the Worker bundle inside workerd
 * (@cloudflare/vitest-pool-workers 0.15.1), against the services test/worker/global-setup.ts starts
 * on Node: PostgreSQL (real with DATABASE_URL, else PGlite over TCP) behind the Neon WebSocket proxy,
 * the Upstash REST shim (real Redis with REDIS_URL, else ioredis-mock) and the QStash stand-in
 * (QSTASH_URL, its token and signing keys).
 *
 * The pool resolves a function's options when it starts, after global setup, so the bindings come from
 * what global setup provided (free ports picked by the OS, no fixed ports to collide on).
 */
export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => ({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: { ...STATIC_TEST_BINDINGS, ...inject('workerServiceBindings') },
      },
    })),
  ],
  test: {
    include: ['test/worker/**/*.test.ts'],
    globalSetup: ['./test/worker/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
})
