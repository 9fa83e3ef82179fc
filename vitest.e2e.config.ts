import { defineConfig } from 'vitest/config'

/**
 * `npm run test:e2e`: the product as users run it. `npm start` (the bundle) is started from outside on
 * a fresh DATA_DIR and driven only over HTTP, the MCP SDK's client and a real chromium; one more start
 * on an existing DATA_DIR. DATABASE_URL / REDIS_URL put the started server on those real servers (a
 * fresh database each run). Not part of `npm test`; `.ci/run` runs it on both databases.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['./test/e2e/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // One started server serves every file: one file at a time, as one user after another.
    fileParallelism: false,
  },
})
