import { defineConfig } from 'vitest/config'

/** `*.redis.test.ts`: tests of what only a real Redis shows (several instances sharing it), run with REDIS_URL. */
const needsRedis = process.env.REDIS_URL ? [] : ['test/**/*.redis.test.ts']

// `npm test`: the Node suite. Embedded by default; DATABASE_URL / REDIS_URL switch it to real servers.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/worker/**',
      'test/reliability/**',
      'test/browser/**',
      'test/e2e/**',
      'test/faults/**',
      // Files about a real PostgreSQL server itself run only when the run has one.
      ...(process.env.DATABASE_URL ? [] : ['test/**/*.postgres.test.ts']),
      // Files about the embedded database itself (one process at a time) run only without one.
      ...(process.env.DATABASE_URL ? ['test/**/*.embedded.test.ts'] : []),
      ...needsRedis,
    ],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/support/setup-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
