/**
 * A real browser for the dashboard's tests: playwright-core driving the system's chromium
 * (`CHROMIUM_PATH`, default /usr/bin/chromium; `.ci/run` installs Debian's package when it is missing),
 * and the app served over real HTTP on loopback.
 */
import { serve } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { type Browser, chromium } from 'playwright-core'
import { afterAll } from 'vitest'
import { createTestApp, type TestApp, type TestAppOptions } from './test-app'

export interface ServedApp extends TestApp {
  baseUrl: string
}

/** A test app on 127.0.0.1 (its public URL the real address; redirects allowed back to `redirectOrigins`). */
export async function serveApp(options: TestAppOptions & { redirectOrigins?: string[] } = {}): Promise<ServedApp> {
  let app: TestApp['app'] | null = null
  const server = serve({ fetch: (req) => app!.fetch(req), hostname: '127.0.0.1', port: 0 })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  afterAll(() => new Promise<void>((r) => server.close(() => r())))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const t = await createTestApp({
    ...options,
    publicUrl: baseUrl,
    connectRedirectOrigins: options.redirectOrigins ?? [],
  })
  app = t.app
  return { ...t, baseUrl }
}

/** The system chromium, headless, closed after the file. */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  })
  afterAll(() => browser.close())
  return browser
}
