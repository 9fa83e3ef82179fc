import { configDefaults, defineConfig } from 'vitest/config'

/**
 * `npm run test:faults`: what the service does when what it depends on goes away or misbehaves while
 * it works (the database restarted, Redis gone, the object store down, the queue delivering twice or
 * late, the clock jumping, the disk full, a network answering garbage). Each file records its rows of
 * docs/faults.md (test/faults/support/fault-report.ts; `npm run faults:table` writes the table).
 * CI runs it on PGlite and on the real servers; a fault that applies to one database only is its
 * own `*.postgres.test.ts` or `*.embedded.test.ts` file, selected as in vitest.config.ts.
 */
const onServers = Boolean(process.env.DATABASE_URL)

export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(onServers ? ['test/faults/**/*.embedded.test.ts'] : ['test/faults/**/*.postgres.test.ts']),
      ...(process.env.REDIS_URL ? [] : ['test/faults/**/*.redis.test.ts']),
    ],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/support/setup-file.ts'],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    // Faults stop servers, fill disks and stall networks: one file at a time keeps them apart.
    fileParallelism: false,
  },
})
