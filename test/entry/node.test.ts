import { mkdtempSync, rmSync } from 'node:fs'
import { get, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { PLATFORM_IDS } from '../../src/domain/vocabulary'
import { waitForRoomInCurrentMinute } from '../support/minute'
import { ROOT, startServer } from '../support/processes'

// These tests start real processes (tsx, PGlite, the local store): minutes on a loaded machine, not seconds.
vi.setConfig({ testTimeout: 180_000 })

const dataDir = mkdtempSync(join(tmpdir(), 'sps-start-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

// `npm start` is always the embedded default: no DATABASE_URL, whatever the run uses.
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  NODE_NO_WARNINGS: '1',
}

/** GET from a given local address, as another machine on the network would. */
function statusFrom(localAddress: string, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = get(url, { localAddress }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
  })
}

/** GET with one raw header of any size (fetch refuses nothing, but the answer is read from node:http). */
function getWithHeader(
  url: string,
  name: string,
  value: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { [name]: value } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('npm start', () => {
  it('creates the demo workspace on an empty database, prints a working token once, and keeps data across restarts', async () => {
    expect(ROOT).toBeTruthy()
    const first = await startServer(env)
    let token: string
    try {
      token = /sps_[0-9A-Za-z]{43}/.exec(first.output())?.[0] ?? ''
      expect(token, first.output()).not.toBe('')
      const me = await fetch(`${first.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } })
      expect(me.status).toBe(200)
      expect(await me.json()).toMatchObject({
        plan: { id: 'agency' },
        usage: { socialAccounts: PLATFORM_IDS.length, seats: 1 },
      })
      // The demo user signs in to the dashboard with the password printed beside the token.
      const password = /as demo@example\.com with the password[^\n]*\n\n\s+([0-9A-Za-z]{16})/.exec(first.output())?.[1]
      expect(password, first.output()).toBeTruthy()
      const formPage = await fetch(`${first.baseUrl}/app/sign-in`)
      const formCookie = /sps_form=([^;]+)/.exec(formPage.headers.get('set-cookie') ?? '')![1]!
      const signedIn = await fetch(`${first.baseUrl}/app/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `sps_form=${formCookie}` },
        body: new URLSearchParams({ _csrf: formCookie, email: 'demo@example.com', password: password! }),
      })
      expect(signedIn.status).toBe(303)
      const accounts = (await (
        await fetch(`${first.baseUrl}/v1/accounts`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as Array<{ platform: string; connection: string }>
      expect(new Set(accounts.map((a) => a.platform)).size).toBe(PLATFORM_IDS.length)
      expect(accounts.every((a) => a.connection === 'SANDBOX')).toBe(true)
    } finally {
      expect(await first.stop()).toBe(0)
    }

    const second = await startServer(env)
    try {
      expect(second.output()).not.toMatch(/sps_[0-9A-Za-z]{43}/)
      expect((await fetch(`${second.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
        200,
      )
    } finally {
      await second.stop()
    }
  })

  it('limits by the socket address over real HTTP: the 121st request in a minute gets 429', async () => {
    const server = await startServer({ ...env, DATA_DIR: join(dataDir, 'limits') })
    try {
      await waitForRoomInCurrentMinute(15_000)
      const statuses: number[] = []
      for (let i = 0; i < 121; i++) {
        // A forged X-Forwarded-For must not buy a fresh bucket: the proxy is not trusted by default.
        const res = await fetch(`${server.baseUrl}/v1/me`, { headers: { 'x-forwarded-for': `192.0.2.${i % 250}` } })
        statuses.push(res.status)
        await res.arrayBuffer()
      }
      expect(statuses.slice(0, 120).every((s) => s === 401)).toBe(true)
      expect(statuses[120]).toBe(429)
      // Another client (another loopback address) has a bucket of its own.
      expect(await statusFrom('127.0.0.2', `${server.baseUrl}/v1/me`)).toBe(401)
    } finally {
      await server.stop()
    }
  })
  it('speaks the HTTP conventions over real HTTP: CORS, request ids, 401 challenge, 405, log line', async () => {
    const origin = 'https://app.example.test'
    const server = await startServer({
      ...env,
      DATA_DIR: join(dataDir, 'conventions'),
      LOG_LEVEL: 'info',
      CORS_ORIGINS: `${origin},http://localhost:5173`,
    })
    try {
      const token = /sps_[0-9A-Za-z]{43}/.exec(server.output())?.[0] ?? ''
      expect(token, server.output()).not.toBe('')
      const preflight = await fetch(`${server.baseUrl}/v1/posts`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin)
      expect(preflight.headers.get('ratelimit-limit')).toBeNull()

      const me = await fetch(`${server.baseUrl}/v1/me`, {
        headers: { origin, authorization: `Bearer ${token}`, 'x-request-id': 'trace-node-1' },
      })
      expect(me.status).toBe(200)
      expect(me.headers.get('x-request-id')).toBe('trace-node-1')
      expect(me.headers.get('access-control-allow-origin')).toBe(origin)
      expect(me.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining')

      const refused = await fetch(`${server.baseUrl}/v1/me`, { headers: { authorization: 'Bearer sps_nope' } })
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')

      const wrong = await fetch(`${server.baseUrl}/v1/me`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      })
      expect(wrong.status).toBe(405)
      expect(wrong.headers.get('allow')).toBe('GET, HEAD')
      expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed')

      // The log goes to the child's stdout, which may land a moment after the answer.
      await vi.waitFor(() => expect(server.output()).toContain('"requestId":"trace-node-1"'), { timeout: 10_000 })
      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
      expect(lines).toContainEqual(
        expect.objectContaining({
          event: 'request',
          method: 'GET',
          route: '/v1/me',
          status: 200,
          requestId: 'trace-node-1',
        }),
      )
      const requestLines = server
        .output()
        .split('\n')
        .filter((l) => l.includes('"event":"request"'))
      expect(requestLines.join('\n')).not.toContain(token)
    } finally {
      await server.stop()
    }
  })

  it('answers oversized headers with the API error body: 401 for a 20 KB token, 431 for a 100 KB header', async () => {
    const server = await startServer({ ...env, DATA_DIR: join(dataDir, 'headers') })
    try {
      const big = await getWithHeader(`${server.baseUrl}/v1/me`, 'authorization', `Bearer sps_${'a'.repeat(20_000)}`)
      expect(big.status).toBe(401)
      expect(big.headers['content-type']).toMatch(/^application\/json/)
      const unauthorized = JSON.parse(big.body)
      expect(unauthorized).toEqual({
        error: { code: 'unauthorized', message: expect.any(String), requestId: expect.stringMatching(/^req_/) },
      })
      expect(big.headers['x-request-id']).toBe(unauthorized.error.requestId)

      const huge = await getWithHeader(`${server.baseUrl}/v1/me`, 'x-padding', 'p'.repeat(100_000))
      expect(huge.status).toBe(431)
      expect(huge.headers['content-type']).toMatch(/^application\/json/)
      const tooLarge = JSON.parse(huge.body)
      expect(tooLarge).toEqual({
        error: {
          code: 'invalid_request',
          message: expect.stringMatching(/headers/i),
          requestId: expect.stringMatching(/^req_/),
        },
      })
      expect(huge.headers['x-request-id']).toBe(tooLarge.error.requestId)

      // The server still answers afterwards.
      expect((await fetch(`${server.baseUrl}/v1/me`)).status).toBe(401)
    } finally {
      await server.stop()
    }
  })
})
