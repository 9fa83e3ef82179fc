import { defineConfig } from 'vitest/config'

/**
 * `npm run test:reliability`: the properties the service promises, generated rather than hand-written
 * (the tenant matrix and the fuzz from the OpenAPI document, crash rounds over real processes, fault
 * injection at the network fakes). Slower than `npm test`, so CI runs it separately, on PGlite and on
 * the real servers (DATABASE_URL / REDIS_URL), with the same global setup.
 */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/support/setup-file.ts'],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    // The crash rounds and the fuzz each load the machine; one file at a time keeps timings honest.
    fileParallelism: false,
  },
})
