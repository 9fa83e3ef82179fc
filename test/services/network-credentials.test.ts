import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../src/db/schema'
import { createDrizzleSandboxStore } from '../../src/db/queries/sandbox-posts'
import type { NetworkAdapter } from '../../src/networks/adapter'
import { checkCredentials } from '../../src/networks/credentials'
import { createNetworkRegistry } from '../../src/networks/create-registry'
import { expiresAtFrom, expiresWithin, failureOf, joinUrl, NetworkFailure, request } from '../../src/networks/http'
import { createSandboxAdapter } from '../../src/networks/sandbox/adapter'
import { usableCredentials } from '../../src/services/accounts/credentials'
import { startFakeServer, type FakeServer } from '../fakes/fake-server'
import { runDue } from '../support/engine'
import { fixedClock, realAccount } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

/**
 * An OAuth server that rotates refresh tokens, as the microblog and short-video networks do: each
 * refresh token works once, and using a spent one is `invalid_grant`. Its one API route takes only
 * the current access token. Counting refreshes shows whether concurrent users renewed once.
 */
async function rotatingOAuthServer() {
  const state = { n: 0, access: 'access-0', refresh: 'refresh-0' }
  let refreshes = 0
  const posts: string[] = []
  const fake: FakeServer = await startFakeServer([
    [
      'POST',
      '/token',
      async (req) => {
        refreshes++
        await new Promise((r) => setTimeout(r, 30))
        if (req.form().get('refresh_token') !== state.refresh)
          return {
            status: 400,
            json: { error: 'invalid_grant', error_description: 'Value passed for the token was invalid.' },
          }
        state.n++
        state.access = `access-${state.n}`
        state.refresh = `refresh-${state.n}`
        return { json: { access_token: state.access, refresh_token: state.refresh, expires_in: 7200 } }
      },
    ],
    [
      'POST',
      '/post',
      (req) => {
        if (req.headers.authorization !== `Bearer ${state.access}`)
          return { status: 401, json: { title: 'Unauthorized', detail: 'Unauthorized' } }
        posts.push(req.json().text)
        return { json: { id: `p${posts.length}` } }
      },
    ],
  ])
  return {
    fake,
    posts,
    refreshes: () => refreshes,
    /** The access token stops working before its time; the refresh token still works. */
    revokeAccess: () => (state.access = 'revoked'),
    /** The user revoked the app: neither token works. */
    revokeAll: () => Object.assign(state, { access: 'revoked', refresh: 'revoked' }),
  }
}

/** A network adapter speaking to that server: renews when within 5 minutes of expiry. */
const rotatingAdapter: NetworkAdapter = {
  async publish(input) {
    const answer = await request(input.fetch, 'TestNet', joinUrl(input.baseUrl, '/post'), {
      headers: { authorization: `Bearer ${input.credentials.accessToken}` },
      json: { text: input.content.text },
    })
    if (answer.status !== 200) {
      const failure = failureOf(answer, 'TestNet', answer.body?.detail, input.now)
      return { status: 'failed', kind: failure.kind, message: failure.message }
    }
    return { status: 'published', platformPostId: answer.body.id, permalink: `https://test.example/${answer.body.id}` }
  },
  credentialRefresh: {
    isDue: (credentials, now) => expiresWithin(credentials, now, 300),
    async refresh(input) {
      const answer = await request(input.fetch, 'TestNet', joinUrl(input.baseUrl, '/token'), {
        form: { grant_type: 'refresh_token', refresh_token: String(input.credentials.refreshToken) },
      })
      if (answer.status !== 200)
        return {
          status: 'failed',
          kind: answer.body?.error === 'invalid_grant' ? 'auth_expired' : 'transient',
          message: `TestNet: ${answer.body?.error_description ?? answer.status}`,
        }
      return {
        status: 'refreshed',
        credentials: {
          ...input.credentials,
          accessToken: answer.body.access_token,
          refreshToken: answer.body.refresh_token,
          expiresAt: expiresAtFrom(input.now, answer.body.expires_in),
        },
      }
    },
  },
}

async function setup(expiresAt: string) {
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const server = await rotatingOAuthServer()
  const t = await createTestApp({
    clock,
    networkRegistry: (parts) =>
      createNetworkRegistry({
        sandbox: createSandboxAdapter({
          store: createDrizzleSandboxStore(parts.db),
          permalinkBase: 'http://localhost',
        }),
        realAdapters: { MICROBLOG_NET: rotatingAdapter },
        origins: { ...parts.settings.networkOrigins, MICROBLOG_NET_API_URL: server.fake.url },
        fetch,
      }),
  })
  const account = await realAccount(t, 'MICROBLOG_NET', 'DIRECT_LOGIN', {
    accessToken: 'access-0',
    refreshToken: 'refresh-0',
    expiresAt,
    userId: 'u1',
  })
  const row = async () => (await t.deps.db.select().from(accounts).where(eq(accounts.id, account.id)))[0]!
  const stored = async () => t.deps.cipher.decrypt((await row()).credentials, account.id)
  return { t, clock, server, account, row, stored }
}

describe('network credentials: renewal before use', () => {
  it('renews a due token once for eight concurrent users, and every one of them gets the new token', async () => {
    const { t, server, row, stored } = await setup('2026-11-21T10:02:00Z')
    const adapter = t.deps.networks.adapterFor('MICROBLOG_NET', 'DIRECT_LOGIN')!
    const results = await Promise.all(
      Array.from({ length: 8 }, async () => usableCredentials(t.deps, await row(), adapter)),
    )
    expect(server.refreshes()).toBe(1)
    for (const r of results)
      expect(r).toMatchObject({ ok: true, credentials: { accessToken: 'access-1', refreshToken: 'refresh-1' } })
    expect(await stored()).toMatchObject({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      expiresAt: '2026-11-21T12:00:00.000Z',
      userId: 'u1',
    })
    // Not due any more: no call.
    expect(await usableCredentials(t.deps, await row(), adapter)).toMatchObject({ ok: true, refreshed: false })
    expect(server.refreshes()).toBe(1)
  })

  it('publishes with a renewed token when the stored one is due', async () => {
    const { t, server, stored } = await setup('2026-11-21T09:00:00Z')
    const { account } = await setupPost(t, 'renewed first')
    expect(server.posts).toEqual(['renewed first'])
    expect(await stored()).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' })
    expect(account.status).toBe('ACTIVE')
  })

  it('renews once and publishes when the network refuses a token that was not due yet', async () => {
    const { t, server, stored } = await setup('2026-11-22T10:00:00Z')
    server.revokeAccess()
    const { post, account } = await setupPost(t, 'sent after renewal')
    expect(server.posts).toEqual(['sent after renewal'])
    expect(server.refreshes()).toBe(1)
    expect(post.targets[0]).toMatchObject({ status: 'PUBLISHED', platformPostId: 'p1' })
    expect(account.status).toBe('ACTIVE')
    expect(await stored()).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' })
  })

  it('fails auth_expired and asks for a reconnect when neither token works any more', async () => {
    const { t, server, stored } = await setup('2026-11-22T10:00:00Z')
    server.revokeAll()
    const { post, account } = await setupPost(t, 'never sent')
    expect(server.posts).toEqual([])
    expect(post.targets[0]).toMatchObject({ status: 'FAILED', error: { code: 'auth_expired' } })
    expect(account.status).toBe('EXPIRED')
    expect(account.statusMessage).toContain('reconnect the account')
    expect(await stored()).toMatchObject({ accessToken: 'access-0', refreshToken: 'refresh-0' })
  })

  it('marks the account EXPIRED when the network refuses the renewal, and keeps the stored tokens', async () => {
    const { t, server, row, stored } = await setup('2026-11-21T09:00:00Z')
    server.revokeAll()
    const adapter = t.deps.networks.adapterFor('MICROBLOG_NET', 'DIRECT_LOGIN')!
    const result = await usableCredentials(t.deps, await row(), adapter)
    expect(result).toMatchObject({ ok: false, kind: 'auth_expired', message: expect.stringContaining('invalid') })
    expect((await row()).status).toBe('EXPIRED')
    expect(await stored()).toMatchObject({ accessToken: 'access-0', refreshToken: 'refresh-0' })
  })
})

async function setupPost(t: TestApp, caption: string) {
  const [acc] = await t.deps.db.select().from(accounts).where(eq(accounts.workspaceId, t.workspaceId))
  const created = await (
    await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [acc!.id], mediaIds: [], caption, action: 'now' },
    })
  ).json()
  await runDue(t, t.publishQueue)
  const post = await (await t.call('GET', `/v1/posts/${created.id}`)).json()
  const [account] = await t.deps.db.select().from(accounts).where(eq(accounts.id, acc!.id))
  return { post, account: account! }
}

describe('network credentials: what account add accepts', () => {
  it("checks each platform's fields and names every problem", () => {
    expect(
      checkCredentials('MICROBLOG_NET', 'DIRECT_LOGIN', {
        accessToken: 'a',
        refreshToken: 'r',
        expiresAt: 1795000000,
        userId: '1',
      }),
    ).toEqual({
      ok: true,
      credentials: {
        accessToken: 'a',
        refreshToken: 'r',
        expiresAt: new Date(1795000000 * 1000).toISOString(),
        userId: '1',
      },
    })
    const bad = checkCredentials('OPENPROTOCOL_NET', 'APP_PASSWORD', { serviceUrl: 'not a url', identifier: '' })
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.problems.map((p) => p.split(':')[0])).toEqual(['serviceUrl', 'identifier', 'appPassword'])
    expect(checkCredentials('CHAT_NET', 'WEBHOOK', { webhookUrl: 'https://discord.com/api/webhooks/123/abc' }).ok).toBe(
      true,
    )
    expect(checkCredentials('CHAT_NET', 'WEBHOOK', { webhookUrl: 'https://discord.com/channels/1/2' }).ok).toBe(false)
    expect(checkCredentials('PHOTO_NET', 'APP_PASSWORD', {})).toEqual({
      ok: false,
      problems: ['PHOTO_NET connects through SOCIALGRAPH_LOGIN or DIRECT_LOGIN, not APP_PASSWORD'],
    })
    expect(
      checkCredentials('PROFESSIONAL_NET', 'DIRECT_LOGIN', {
        accessToken: 'a',
        expiresAt: '2027-01-01T00:00:00Z',
        authorUrn: 'urn:li:company:1',
      }).ok,
    ).toBe(false)
  })

  it('names a network failure without its URL', async () => {
    const fake = await startFakeServer([])
    const failure = await request(fetch, 'TestNet', 'http://127.0.0.1:1/bot123:SECRET/getMe').catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(NetworkFailure)
    expect((failure as NetworkFailure).kind).toBe('transient')
    expect((failure as NetworkFailure).message).toBe('TestNet could not be reached.')
    const answer = await request(fetch, 'TestNet', `${fake.url}/missing`)
    expect(failureOf(answer, 'TestNet', 'no such thing', new Date()).kind).toBe('rejected')
  })
})
