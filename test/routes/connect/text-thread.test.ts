/**
 * Hosted connect of a text-thread account over real HTTP against the network's loopback fake: the
 * code exchanged for a short-lived token (an answer with the user id and no token type, as
 * documented), traded at once for a long-lived one (`th_exchange_token`), which the adapter then
 * renews (`th_refresh_token`); a refused long-lived exchange stores nothing.
 */
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { startTextThreadFake } from '../../fakes/text-thread'
import { linkHref, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'

async function setup() {
  const fake = await startTextThreadFake()
  const t = await serveTestApp({
    connectRedirectOrigins: [APP],
    networks: {
      origins: { TEXTTHREAD_NET_API_URL: fake.url, TEXTTHREAD_NET_AUTHORIZE_URL: fake.url },
      clients: { TEXTTHREAD_NET: { clientId: 'th-app', clientSecret: 'th-secret' } },
    },
  })
  return { fake, t }
}

async function signIn(t: ServedApp) {
  const res = await t.call('POST', '/v1/accounts/connect', {
    body: { platform: 'TEXTTHREAD_NET', redirectUrl: `${APP}/cb` },
  })
  const start = await visit((await res.json()).url)
  return new URL((await visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href, { stopAt: APP })).url)
}

describe('hosted connect, text-thread network (short-lived, then long-lived token)', () => {
  it('stores the long-lived token with its expiry and the user id; the adapter renews it', async () => {
    const { fake, t } = await setup()
    const back = await signIn(t)
    const accountId = back.searchParams.get('accountId')
    expect(back.href).toContain('accountId=acc_')
    if (!accountId) return
    const [authorize] = fake.oauth.authorizeRequests
    expect(authorize!.get('scope')).toBe('threads_basic,threads_content_publish,threads_manage_replies,threads_delete')
    expect(authorize!.get('code_challenge')).toBeNull()
    const [exchange] = fake.calls('GET', '/access_token')
    expect(exchange!.query.get('grant_type')).toBe('th_exchange_token')

    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
    expect(row!.externalId).toBe(fake.userId)
    const credentials = await t.deps.cipher.decrypt(row!.credentials, accountId)
    expect(credentials.accessToken).toBe(fake.state.token)
    expect(credentials.userId).toBe(fake.userId)
    const lifetime = Date.parse(String(credentials.expiresAt)) - Date.now()
    expect(lifetime).toBeGreaterThan(59 * 86_400_000)
    expect((await (await t.call('GET', `/v1/accounts/${accountId}`)).json()).tokenExpiresAt).toBe(credentials.expiresAt)

    // The stored long-lived token renews with th_refresh_token.
    const adapter = t.deps.networks.adapterFor('TEXTTHREAD_NET', 'DIRECT_LOGIN')!
    const renewed = await adapter.credentialRefresh!.refresh({
      connection: 'DIRECT_LOGIN',
      credentials,
      fetch: t.deps.networks.fetch,
      baseUrl: t.deps.networks.baseUrlFor('TEXTTHREAD_NET', 'DIRECT_LOGIN', credentials),
      now: new Date(),
    })
    const [refresh] = fake.calls('GET', '/refresh_access_token')
    expect(refresh!.query.get('grant_type')).toBe('th_refresh_token')
    expect(refresh!.query.get('access_token')).toBe(credentials.accessToken)
    expect(renewed).toMatchObject({ status: 'refreshed', credentials: { accessToken: fake.state.token } })
  })

  it('stores nothing when the long-lived exchange is refused, and says what the network answered', async () => {
    const { fake, t } = await setup()
    fake.failNext(/^\/access_token$/, {
      status: 400,
      json: {
        error: { message: 'Invalid OAuth access token - Session has expired', type: 'OAuthException', code: 190 },
      },
    })
    const back = await signIn(t)
    expect(back.searchParams.get('error')).toBe('exchange_failed')
    expect(back.searchParams.get('message')).toContain('Session has expired')
    const n = (await t.deps.db.select({ n: count() }).from(accounts).where(eq(accounts.workspaceId, t.workspaceId)))[0]!
    expect(n.n).toBe(0)
  })
})
