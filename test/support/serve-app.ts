import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll } from 'vitest'
import type { TestApp } from './test-app'

const servers: Array<ReturnType<typeof serve>> = []
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))))
})

/**
 * The test app over real HTTP on loopback (closed when the test file is done), and a client that
 * calls it as a user's program does: `fetch`, the bearer token, the test app's client address.
 */
export async function serveApp(t: TestApp) {
  const server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 })
  servers.push(server)
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return async (method: string, path: string, token: string = t.token) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': t.ip },
    })
    return { status: res.status, body: (await res.json()) as any }
  }
}
