import { configDefaults, defineConfig } from 'vitest/config'

/**
 * `npm run test:reliability`: the properties the service promises, generated rather than hand-written
 * (the tenant matrix and the fuzz from the OpenAPI document, crash rounds over real processes, fault
 * injection at the network fakes). Slower than `npm test`, so CI runs it separately, on PGlite and on
 * the real servers (DATABASE_URL / REDIS_URL), with the same global setup. The three-server test
 * (multi-instance.test.ts) runs only on the real servers.
 */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    // Several servers share one database only on a database server: PGlite is one process's.
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.DATABASE_URL ? [] : ['test/reliability/multi-instance.test.ts']),
    ],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/support/setup-file.ts'],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    // The crash rounds and the fuzz each load the machine; one file at a time keeps timings honest.
    fileParallelism: false,
  },
})
