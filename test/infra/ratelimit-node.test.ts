/**
 * Which limiter `npm start` uses (memory, Upstash, REDIS_URL), and what a REDIS_URL nobody answers
 * gives: the API let through with its headers and a warning, sign-in refused. Needs no Redis server
 * (a closed port is the outage); the Upstash check goes through the REST stand-in (ioredis-mock, or
 * the run's Redis).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { parseNodeConfig } from '../../src/config'
import { createLogger } from '../../src/infra/logger'
import { randomBase62 } from '../../src/lib/ids'
import { openNodeRateLimiter, type NodeRateLimiter } from '../../src/runtime/node-rate-limiter'
import { createUser } from '../../src/services/people/users'
import { cookiesOf, submitSignIn } from '../support/dashboard'
import { createTestApp, randomIp } from '../support/test-app'
import { startUpstashRestShim } from '../support/upstash-rest-shim'

const opened: Array<NodeRateLimiter | { close(): Promise<void> }> = []
afterEach(async () => {
  for (const item of opened.splice(0)) await item.close()
})

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

async function open(env: Record<string, string>, lines: string[] = []): Promise<NodeRateLimiter> {
  const limits = await openNodeRateLimiter(
    parseNodeConfig(env),
    createLogger('debug', (line) => lines.push(line)),
  )
  opened.push(limits)
  return limits
}

describe('the Node runtime picks its rate limiter from the environment', () => {
  it('counts in memory with neither REDIS_URL nor Upstash', async () => {
    const limits = await open({})
    expect(limits.description).toBe('memory')
    expect(await limits.limiter.check('bulk', 'a')).toMatchObject({ allowed: true, limit: 10, remaining: 9 })
  })

  it('counts in Upstash over REST when only Upstash is configured', async () => {
    const token = `node-upstash-${randomBase62(8)}`
    const shim = await startUpstashRestShim({ redisUrl: process.env.REDIS_URL, token })
    opened.push(shim)
    const limits = await open({ UPSTASH_REDIS_REST_URL: shim.url, UPSTASH_REDIS_REST_TOKEN: token })
    expect(limits.description).toBe(`upstash ${new URL(shim.url).host}`)
    const client = randomIp()
    expect(await limits.limiter.check('bulk', client)).toMatchObject({ allowed: true, remaining: 9 })
    expect(await limits.limiter.check('bulk', client)).toMatchObject({ allowed: true, remaining: 8 })
  })

  it('takes REDIS_URL over Upstash, and names it without its password', async () => {
    const port = await closedPort()
    const limits = await open({
      REDIS_URL: `redis://:s3cret@127.0.0.1:${port}/0`,
      UPSTASH_REDIS_REST_URL: 'http://127.0.0.1:9',
      UPSTASH_REDIS_REST_TOKEN: 'unused',
    })
    expect(limits.description).toBe(`redis://127.0.0.1:${port}`)
  })

  it('refuses a REDIS_URL that is not redis:// or rediss://', () => {
    expect(() => parseNodeConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL: must be a redis/)
    expect(parseNodeConfig({ REDIS_URL: 'rediss://h.example:6380' }).REDIS_URL).toBe('rediss://h.example:6380')
  })
})

describe('REDIS_URL unreachable', () => {
  async function unreachableApp() {
    const lines: string[] = []
    const limits = await open({ REDIS_URL: `redis://:s3cret@127.0.0.1:${await closedPort()}` }, lines)
    const t = await createTestApp({ parts: (parts) => ({ ...parts, rateLimiter: limits.limiter }) })
    return { t, lines }
  }

  it("counts API requests in the instance's own memory, with the same limits, and warns once without a stack", async () => {
    const { t, lines } = await unreachableApp()
    expect(lines.join('\n')).toMatch(/"event":"rate_limiter_unavailable","reason":"redis_not_connected_at_start"/)
    for (let i = 0; i < 3; i++) {
      const res = await t.call('GET', '/v1/me')
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe('120')
      expect(res.headers.get('ratelimit-remaining')).toBe(String(119 - i))
    }
    const warnings = lines.filter((l) => l.includes('"event":"rate_limiter_unavailable","bucket":"default"'))
    expect(warnings).toHaveLength(1)
    const health = await (await t.call('GET', '/health', { token: null })).json()
    expect(health).toMatchObject({
      status: 'degraded',
      rateLimiter: { store: 'redis', state: 'unavailable', fallbackDecisions: 3 },
    })
    expect(lines.filter((l) => l.includes('"event":"redis_unreachable"'))).toHaveLength(1)
    expect(lines.join('\n')).not.toMatch(/\n\s+at |s3cret/)
  })

  it('refuses sign-in and sign-up with 503 rather than letting attempts through uncounted', async () => {
    const { t } = await unreachableApp()
    const email = `outage-${randomBase62(6)}@example.com`
    await createUser(t.deps, { email, name: 'Outage', password: 'the right password' })
    const refused = await submitSignIn(t.app, email, 'the right password', randomIp())
    expect(refused.status).toBe(503)
    expect(refused.headers.getSetCookie().some((c) => c.startsWith('sps_session='))).toBe(false)
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(30)
    expect(retryAfter).toBeLessThanOrEqual(31)
    expect(await refused.text()).toContain(
      `Sign-in and sign-up are paused for a moment: the service that counts attempts is not answering. Try again in ${retryAfter} seconds.`,
    )
    const form = cookiesOf(await t.app.request('/app/sign-up')).sps_form!
    const signUp = await t.app.request('/app/sign-up', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `sps_form=${form}` },
      body: new URLSearchParams({
        _csrf: form,
        email: `new-${email}`,
        name: 'New',
        password: 'a long enough new password 42',
        workspaceName: 'New',
      }).toString(),
    })
    expect(signUp.status).toBe(503)
    expect(signUp.headers.get('retry-after')).not.toBeNull()
    expect(await signUp.text()).toContain('Sign-in and sign-up are paused for a moment')
  })
})
