import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { account, fixedClock, realAccount } from '../../support/fixtures'
import { runDue } from '../../support/engine'
import { createTestApp } from '../../support/test-app'
import { startMicroblogFake } from '../../fakes/microblog'

const NOW = '2026-11-21T10:00:00Z'
const LATER = '2026-11-21T12:00:00Z'

describe('GET /v1/accounts/{id}', () => {
  it('answers the account with its health, never its credentials', async () => {
    const t = await createTestApp({ clock: fixedClock(NOW) })
    const a = await realAccount(t, 'MICROBLOG_NET', 'DIRECT_LOGIN', {
      accessToken: 'secret-access',
      refreshToken: 'secret-refresh',
      expiresAt: '2026-11-21T12:00:00.000Z',
      userId: '42',
    })
    const res = await t.call('GET', `/v1/accounts/${a.id}`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({
      id: a.id,
      platform: 'MICROBLOG_NET',
      status: 'ACTIVE',
      statusReason: null,
      tokenExpiresAt: '2026-11-21T12:00:00.000Z',
      lastPublishedAt: null,
    })
    expect(new Date(body.connectedAt).getTime()).toBeGreaterThan(0)
    expect(JSON.stringify(body)).not.toMatch(/secret-|credentials/)
    const listed = await (await t.call('GET', '/v1/accounts')).json()
    expect(listed[0]).toEqual(body)
  })

  it('tells when the account last published', async () => {
    const t = await createTestApp({ clock: fixedClock(NOW) })
    const a = await account(t, 'MESSAGING_NET')
    await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], caption: 'hi', action: 'now' },
    })
    await runDue(t, t.publishQueue)
    const body = await (await t.call('GET', `/v1/accounts/${a.id}`)).json()
    expect(body.lastPublishedAt).toBe(new Date(NOW).toISOString())
  })

  it("answers 404 for another workspace's account, as for one that does not exist", async () => {
    const mine = await createTestApp()
    const theirs = await createTestApp()
    const a = await account(theirs, 'PHOTO_NET')
    const foreign = await mine.call('GET', `/v1/accounts/${a.id}`)
    expect(foreign.status).toBe(404)
    expect((await foreign.json()).error.code).toBe('not_found')
    expect((await mine.call('GET', '/v1/accounts/acc_nope')).status).toBe(404)
  })
})

describe('DELETE /v1/accounts/{id}', () => {
  it('fails pending targets, wipes credentials and keeps the account DISCONNECTED; nothing is published', async () => {
    const t = await createTestApp({ clock: fixedClock(NOW) })
    const gone = await account(t, 'MESSAGING_NET', 'gone')
    const stays = await account(t, 'MICROBLOG_NET', 'stays')
    const only = await (
      await t.call('POST', '/v1/posts', {
        body: {
          type: 'IMAGE',
          accountIds: [gone.id],
          mediaIds: [],
          caption: 'a',
          action: 'schedule',
          scheduledAt: LATER,
        },
      })
    ).json()
    const both = await (
      await t.call('POST', '/v1/posts', {
        body: {
          type: 'IMAGE',
          accountIds: [gone.id, stays.id],
          mediaIds: [],
          caption: 'b',
          action: 'schedule',
          scheduledAt: LATER,
        },
      })
    ).json()

    const res = await t.call('DELETE', `/v1/accounts/${gone.id}`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({
      account: { id: gone.id, status: 'DISCONNECTED', statusReason: expect.stringContaining('Disconnected') },
      tokenRevoked: false,
      failedTargets: 2,
    })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, gone.id))
    expect(row!.credentials).toBe('')

    const onlyAfter = await (await t.call('GET', `/v1/posts/${only.id}`)).json()
    expect(onlyAfter.status).toBe('FAILED')
    expect(onlyAfter.targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'account_disconnected', retryable: true },
    })
    const bothAfter = await (await t.call('GET', `/v1/posts/${both.id}`)).json()
    expect(bothAfter.status).toBe('SCHEDULED')
    const byAccount = Object.fromEntries(bothAfter.targets.map((x: any) => [x.accountId, x.status]))
    expect(byAccount).toEqual({ [gone.id]: 'FAILED', [stays.id]: 'PENDING' })

    // At publish time only the other account's target goes out.
    ;(t.deps.clock as ReturnType<typeof fixedClock>).set(LATER)
    await runDue(t, t.publishQueue)
    const published = await (await t.call('GET', `/v1/posts/${both.id}`)).json()
    const statuses = Object.fromEntries(published.targets.map((x: any) => [x.accountId, x.status]))
    expect(statuses).toEqual({ [gone.id]: 'FAILED', [stays.id]: 'PUBLISHED' })
    expect((await (await t.call('GET', `/v1/posts/${only.id}`)).json()).targets[0].status).toBe('FAILED')

    // Still listed, for history; disconnecting again changes nothing.
    const listed = await (await t.call('GET', '/v1/accounts')).json()
    expect(listed.find((x: any) => x.id === gone.id).status).toBe('DISCONNECTED')
    const again = await t.call('DELETE', `/v1/accounts/${gone.id}`)
    expect((await again.json()).failedTargets).toBe(0)
  })

  it('revokes the token at a network with a revocation endpoint', async () => {
    const fake = await startMicroblogFake()
    const t = await createTestApp({
      networks: {
        origins: { MICROBLOG_NET_API_URL: fake.url },
        clients: { MICROBLOG_NET: { clientId: 'mb-client', clientSecret: 'mb-secret' } },
      },
    })
    const a = await realAccount(t, 'MICROBLOG_NET', 'DIRECT_LOGIN', {
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      expiresAt: '2030-01-01T00:00:00.000Z',
      userId: fake.userId,
    })
    const body = await (await t.call('DELETE', `/v1/accounts/${a.id}`)).json()
    expect(body.account.statusReason).toBe('Disconnected by the user.')
    expect(body.tokenRevoked).toBe(true)
    expect(fake.oauth.revoked).toEqual(['refresh-1'])
    expect(body.account.tokenExpiresAt).toBeNull()
  })

  it('disconnects even when the network refuses the revocation, and says so', async () => {
    const fake = await startMicroblogFake({ client: { id: 'mb-client', secret: 'other-secret' } })
    const t = await createTestApp({
      networks: {
        origins: { MICROBLOG_NET_API_URL: fake.url },
        clients: { MICROBLOG_NET: { clientId: 'mb-client', clientSecret: 'mb-secret' } },
      },
    })
    const a = await realAccount(t, 'MICROBLOG_NET', 'DIRECT_LOGIN', {
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      expiresAt: '2030-01-01T00:00:00.000Z',
      userId: fake.userId,
    })
    const body = await (await t.call('DELETE', `/v1/accounts/${a.id}`)).json()
    expect(body.tokenRevoked).toBe(false)
    expect(body.account.status).toBe('DISCONNECTED')
    expect(body.account.statusReason).toMatch(/did not revoke the token: invalid_client/)
    expect(JSON.stringify(body)).not.toContain('refresh-1')
  })

  it('answers the boards of a disconnected account in words (nothing left to decrypt)', async () => {
    const t = await createTestApp()
    const pin = await realAccount(t, 'PINBOARD_NET', 'DIRECT_LOGIN', {
      accessToken: 'a',
      refreshToken: 'r',
      expiresAt: '2030-01-01T00:00:00.000Z',
    })
    await t.call('DELETE', `/v1/accounts/${pin.id}`)
    const res = await t.call('GET', `/v1/accounts/${pin.id}/boards`)
    expect(res.status).toBe(422)
    expect((await res.json()).error.message).toContain('The account is disconnected')
  })

  it("answers 404 for another workspace's account and leaves it alone", async () => {
    const mine = await createTestApp()
    const theirs = await createTestApp()
    const a = await account(theirs, 'PHOTO_NET')
    expect((await mine.call('DELETE', `/v1/accounts/${a.id}`)).status).toBe(404)
    expect((await (await theirs.call('GET', `/v1/accounts/${a.id}`)).json()).status).toBe('ACTIVE')
  })
})
