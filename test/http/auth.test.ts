import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { insertAgentGrant } from '../../src/db/queries/agent-grants'
import { insertAgentToken } from '../../src/db/queries/agent-oauth'
import { apiTokens } from '../../src/db/schema'
import { sha256Hex } from '../../src/lib/crypto'
import { newId, randomBase62 } from '../../src/lib/ids'
import { registerAgentClient } from '../../src/services/agent-oauth/clients'
import { addMember } from '../../src/services/people/memberships'
import { createToken, revokeToken, TOKEN_PREFIX } from '../../src/services/tokens'
import { createUser } from '../../src/services/people/users'
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app'

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
  return body
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

  /**
   * An access token issued to an agent through OAuth, as the token endpoint stores it, expiring at
   * `expiresAt`, with its grant: a member of the workspace who allowed it.
   */
  async function agentToken(t: TestApp, expiresAt: Date): Promise<string> {
    const client = await registerAgentClient(t.deps.db, {
      client_name: 'Desk agent',
      redirect_uris: ['http://127.0.0.1/cb'],
    })
    const token = TOKEN_PREFIX + randomBase62(43)
    await insertAgentToken(t.deps.db, {
      id: newId('token'),
      workspaceId: t.workspaceId,
      name: 'Desk agent (agent, OAuth)',
      agentClientId: client.client_id,
      tokenHash: await sha256Hex(token),
      hint: token.slice(0, 8),
      expiresAt,
    })
    const user = await createUser(t.deps, {
      email: `agent-${randomBase62(8)}@example.test`,
      name: 'Ada',
      password: 'correct horse battery staple',
    })
    await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, 'member'))
    const [row] = await t.deps.db
      .select({ id: apiTokens.id })
      .from(apiTokens)
      .where(eq(apiTokens.hint, token.slice(0, 8)))
    await insertAgentGrant(t.deps.db, { tokenId: row!.id, userId: user.id, workspaceIds: [t.workspaceId] })
    return token
  }

  it('tells an agent (OAuth) token on /v1 that it is valid for /mcp only, still 401 unauthorized', async () => {
    const t = await createTestApp()
    const token = await agentToken(t, new Date(t.deps.clock.now().getTime() + 3_600_000))
    const refused = await t.call('GET', '/v1/me', { token })
    const { error } = await expectUnauthorized(refused)
    expect(error.message).toMatch(/agent token/i)
    expect(error.message).toMatch(/valid for \/mcp only/)
    expect(error.message).not.toMatch(/malformed|unknown|expired|revoked/)
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    // The same token works where it belongs.
    const initialize = await t.call('POST', '/mcp', {
      token,
      headers: { accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
    })
    expect(initialize.status).toBe(200)
  })

  it('gives an expired agent token the usual refusal (it is valid nowhere)', async () => {
    const t = await createTestApp()
    const token = await agentToken(t, new Date(t.deps.clock.now().getTime() - 1000))
    const refused = await t.call('GET', '/v1/me', { token })
    expect((await expectUnauthorized(refused)).error.message).toBe(
      'The API token is malformed, unknown, expired or revoked.',
    )
  })
})
