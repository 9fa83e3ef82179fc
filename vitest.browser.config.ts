import { defineConfig } from 'vitest/config'

// `npm run test:browser`: the dashboard in a real browser (playwright-core driving the system's chromium).
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/support/setup-file.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
})
