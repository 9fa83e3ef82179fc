/**
 * Hosted connect of the forum network (Reddit OAuth 2) over real HTTP against its loopback fake:
 * the consent page is the fake's own form (Allow / Decline), the grant is `duration=permanent`
 * with the documented scopes and no PKCE, the token endpoint takes HTTP Basic and the configured
 * User-Agent, the account's name is read with the token, and disconnect revokes the refresh token.
 */
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { startForumFake } from '../../fakes/forum'
import { linkHref, readForm, serveTestApp, visit, type ServedApp } from '../../support/browser'

const APP = 'http://app.test'
const USER_AGENT = 'web:com.example.publisher:v2.1.0 (by /u/publisher_dev)'

async function setup() {
  const fake = await startForumFake()
  const t = await serveTestApp({
    connectRedirectOrigins: [APP],
    networks: {
      origins: { FORUM_NET_API_URL: fake.url, FORUM_NET_OAUTH_URL: fake.url, FORUM_NET_AUTHORIZE_URL: fake.url },
      clients: { FORUM_NET: { clientId: 'forum-client', clientSecret: 'forum-secret', userAgent: USER_AGENT } },
    },
  })
  return { fake, t }
}

/** Starts the connect flow and answers the network's consent page with `choice`; the URL the browser ends on. */
async function signIn(t: ServedApp, choice: 'Allow' | 'Decline') {
  const res = await t.call('POST', '/v1/accounts/connect', {
    body: { platform: 'FORUM_NET', redirectUrl: `${APP}/cb` },
  })
  expect(res.status).toBe(200)
  const start = await visit((await res.json()).url)
  const consent = await visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href)
  expect(consent.body).toContain('would like to connect')
  const form = readForm(consent.body)
  const back = await visit(new URL(form.action, consent.url).href, {
    method: 'POST',
    form: { ...form.fields, authorize: choice },
    stopAt: APP,
  })
  return new URL(back.url)
}

const accountCount = async (t: ServedApp) =>
  (await t.deps.db.select({ n: count() }).from(accounts).where(eq(accounts.workspaceId, t.workspaceId)))[0]!.n

describe('hosted connect, FORUM_NET', () => {
  it('asks for a permanent grant with the documented scopes, stores the account and revokes on disconnect', async () => {
    const { fake, t } = await setup()
    fake.oauth.signInAs({ id: 'k9x', username: 'river_cafe' })
    const back = await signIn(t, 'Allow')
    const accountId = back.searchParams.get('accountId')
    expect(accountId, back.href).toMatch(/^acc_/)
    const [authorize] = fake.oauth.authorizeRequests
    expect(authorize!.get('duration')).toBe('permanent')
    expect(authorize!.get('scope')).toBe('identity submit mysubreddits flair edit history read')
    expect(authorize!.get('code_challenge')).toBeNull()
    expect(authorize!.get('redirect_uri')).toBe(`${t.baseUrl}/oauth/callback/FORUM_NET`)
    // The token call and every API call name the service with the configured User-Agent.
    const tokenCall = fake.calls('POST', '/api/v1/access_token')[0]!
    expect(tokenCall.headers['user-agent']).toBe(USER_AGENT)
    expect(tokenCall.headers.authorization).toBe(`Basic ${Buffer.from('forum-client:forum-secret').toString('base64')}`)
    expect(fake.calls('GET', '/api/v1/me')[0]!.headers['user-agent']).toBe(USER_AGENT)

    const account = await (await t.call('GET', `/v1/accounts/${accountId}`)).json()
    expect(account).toMatchObject({
      platform: 'FORUM_NET',
      connection: 'DIRECT_LOGIN',
      status: 'ACTIVE',
      username: 'river_cafe',
    })
    expect(Date.parse(account.tokenExpiresAt) - Date.now()).toBeLessThanOrEqual(3600 * 1000)
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId!))
    expect(row!.externalId).toBe('t2_k9x')
    const credentials = await t.deps.cipher.decrypt(row!.credentials, accountId!)
    expect(credentials).toMatchObject({ username: 'river_cafe', refreshToken: expect.stringMatching(/^rt-/) })

    const disconnected = await (await t.call('DELETE', `/v1/accounts/${accountId}`)).json()
    expect(disconnected.tokenRevoked).toBe(true)
    expect(fake.oauth.revoked).toEqual([credentials.refreshToken])
  })

  it('stores nothing when the owner declines or the token exchange fails', async () => {
    const { fake, t } = await setup()
    expect((await signIn(t, 'Decline')).searchParams.get('error')).toBe('access_denied')
    fake.oauth.failNextExchange({ status: 503, json: { error: 'server_error', error_description: 'Try again later' } })
    const failed = await signIn(t, 'Allow')
    expect(failed.searchParams.get('error')).toBe('exchange_failed')
    expect(failed.searchParams.get('message')).toContain('Try again later')
    expect(await accountCount(t)).toBe(0)
  })
})
