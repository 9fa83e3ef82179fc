import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { apiTokens } from '../../src/db/schema'
import { createToken, revokeToken } from '../../src/services/tokens'
import { createTestApp, type TestResponse } from '../support/test-app'

const API_ROUTES: Array<[string, string]> = [
  ['GET', '/v1/me'],
  ['GET', '/v1/accounts'],
  ['GET', '/v1/platforms'],
  ['GET', '/v1/queue-slots'],
  ['PUT', '/v1/queue-slots'],
  ['GET', '/v1/no-such-route'],
]

async function expectUnauthorized(res: TestResponse) {
  expect(res.status).toBe(401)
  const body = await res.json()
  expect(body.error.code).toBe('unauthorized')
  expect(body.error.requestId).toBe(res.headers.get('x-request-id'))
}

describe('authentication', () => {
  it('answers 401 to every route without a token', async () => {
    const t = await createTestApp()
    for (const [method, path] of API_ROUTES) await expectUnauthorized(await t.call(method, path, { token: null }))
  })

  it('answers 401 to malformed, unknown and non-bearer tokens', async () => {
    const t = await createTestApp()
    const unknown = `sps_${'a'.repeat(43)}`
    for (const token of ['nonsense', unknown, t.token.slice(0, -1), `${t.token}x`]) {
      await expectUnauthorized(await t.call('GET', '/v1/me', { token }))
    }
    await expectUnauthorized(
      await t.call('GET', '/v1/me', { token: null, headers: { authorization: `Basic ${t.token}` } }),
    )
  })

  it('accepts a valid token and takes the workspace from it', async () => {
    const t = await createTestApp()
    const res = await t.call('GET', '/v1/me')
    expect(res.status).toBe(200)
    expect((await res.json()).workspaceId).toBe(t.workspaceId)
  })

  it('stores only a SHA-256 hash of the token', async () => {
    const t = await createTestApp()
    const rows = await t.deps.db.select().from(apiTokens).where(eq(apiTokens.workspaceId, t.workspaceId))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(rows)).not.toContain(t.token)
    const digest = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(t.token))).toString('hex')
    expect(rows[0]!.tokenHash).toBe(digest)
  })

  it('refuses a revoked token and records last use of a live one', async () => {
    const t = await createTestApp()
    const second = await createToken(t.deps.db, t.workspaceId, 'second')
    expect((await t.call('GET', '/v1/me', { token: second.token })).status).toBe(200)
    const [used] = await t.deps.db.select().from(apiTokens).where(eq(apiTokens.id, second.id))
    expect(used!.lastUsedAt).toBeInstanceOf(Date)
    expect(await revokeToken(t.deps.db, second.id, new Date())).toBe(true)
    await expectUnauthorized(await t.call('GET', '/v1/me', { token: second.token }))
    expect(await revokeToken(t.deps.db, second.id, new Date())).toBe(false)
    expect((await t.call('GET', '/v1/me')).status).toBe(200)
  })
})
