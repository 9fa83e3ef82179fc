/**
 * Hosted connect of a microblog account over real HTTP against the network's loopback fake: its
 * authorization page (PKCE S256) and token endpoint (code exchange with HTTP Basic), the identity
 * read through the adapter, reconnect, refused consent, a failed exchange, revocation.
 */
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { startMicroblogFake } from '../../fakes/microblog'
import { runDue } from '../../support/engine'
import { linkHref, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'
const CLIENT = { clientId: 'mb-client', clientSecret: 'mb-secret' }

async function setup(options: { withClient?: boolean; logLines?: string[] } = {}) {
  const fake = await startMicroblogFake()
  const t = await serveTestApp({
    connectRedirectOrigins: [APP],
    networks: {
      origins: { MICROBLOG_NET_API_URL: fake.url, MICROBLOG_NET_AUTHORIZE_URL: fake.url },
      clients: options.withClient === false ? {} : { MICROBLOG_NET: CLIENT },
    },
    ...(options.logLines ? { logLines: options.logLines } : {}),
  })
  return { fake, t }
}

/** Link -> start page -> the network's authorization -> our callback -> the caller's page. */
async function signIn(t: ServedApp, url: string) {
  const start = await visit(url)
  expect(start.response.status).toBe(200)
  return visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href, { stopAt: APP })
}

const newLink = async (t: ServedApp) =>
  (
    await (
      await t.call('POST', '/v1/accounts/connect', { body: { platform: 'MICROBLOG_NET', redirectUrl: `${APP}/cb` } })
    ).json()
  ).url as string

const accountCount = async (t: ServedApp) =>
  (await t.deps.db.select({ n: count() }).from(accounts).where(eq(accounts.workspaceId, t.workspaceId)))[0]!.n

describe('hosted connect, microblog network (OAuth 2.0 with PKCE)', () => {
  it('asks for the documented scopes with PKCE S256, exchanges the code and stores the account encrypted', async () => {
    const logLines: string[] = []
    const { fake, t } = await setup({ logLines })
    // The user lookup reports a paid tier: the account gets the long-post budget at connect.
    fake.setSubscription('Premium')
    const end = await signIn(t, await newLink(t))
    const back = new URL(end.url)
    expect(back.origin).toBe(APP)
    const accountId = back.searchParams.get('accountId')!
    expect(accountId).toMatch(/^acc_/)

    const [authorize] = fake.oauth.authorizeRequests
    expect(authorize!.get('scope')).toBe('tweet.read tweet.write users.read media.write offline.access')
    expect(authorize!.get('code_challenge_method')).toBe('S256')
    expect(authorize!.get('redirect_uri')).toBe(`${t.baseUrl}/oauth/callback/MICROBLOG_NET`)
    expect(authorize!.get('response_type')).toBe('code')

    const account = await (await t.call('GET', `/v1/accounts/${accountId}`)).json()
    expect(account).toMatchObject({
      platform: 'MICROBLOG_NET',
      connection: 'DIRECT_LOGIN',
      username: 'acme',
      status: 'ACTIVE',
      captionMaxLength: 25_000,
    })
    expect(account.tokenExpiresAt).not.toBeNull()
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
    expect(row!.externalId).toBe(fake.userId)
    const credentials = await t.deps.cipher.decrypt(row!.credentials, accountId)
    expect(fake.validTokens.has(String(credentials.accessToken))).toBe(true)
    expect(credentials).toMatchObject({ userId: fake.userId, refreshToken: expect.stringMatching(/^rt-/) })
    // No token in any address the browser saw, nor in a log line.
    for (const u of end.chain) expect(u).not.toContain(String(credentials.accessToken))
    expect(logLines.join('\n')).not.toContain(String(credentials.accessToken))
    expect(logLines.join('\n')).not.toContain(String(credentials.refreshToken))
  })

  it('publishes through the account it connected', async () => {
    const { fake, t } = await setup()
    const accountId = new URL((await signIn(t, await newLink(t))).url).searchParams.get('accountId')!
    const post = await t.call('POST', '/v1/posts', {
      body: {
        type: 'IMAGE',
        accountIds: [accountId],
        mediaIds: [],
        caption: 'hello from a connect link',
        action: 'now',
      },
    })
    expect(post.status).toBe(200)
    await runDue(t, t.publishQueue)
    expect(fake.tweets.map((x) => x.text)).toEqual(['hello from a connect link'])
  })

  it('sends the owner back with access_denied when consent is refused; nothing stored', async () => {
    const { fake, t } = await setup()
    fake.oauth.setConsent('deny')
    const back = new URL((await signIn(t, await newLink(t))).url)
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('message')).toContain('The user denied the request')
    expect(await accountCount(t)).toBe(0)
  })

  it('stores nothing when the exchange fails, and says what the network answered', async () => {
    const { fake, t } = await setup()
    fake.oauth.failNextExchange({
      status: 400,
      json: { error: 'invalid_request', error_description: 'Value passed for the authorization code was invalid.' },
    })
    const back = new URL((await signIn(t, await newLink(t))).url)
    expect(back.searchParams.get('error')).toBe('exchange_failed')
    expect(back.searchParams.get('message')).toContain('Value passed for the authorization code was invalid.')
    expect(await accountCount(t)).toBe(0)
  })

  it('names the missing configuration keys instead of handing out a broken link', async () => {
    const { t } = await setup({ withClient: false })
    const res = await t.call('POST', '/v1/accounts/connect', { body: { platform: 'MICROBLOG_NET' } })
    expect(res.status).toBe(422)
    const { error } = await res.json()
    expect(error.code).toBe('invalid_option')
    expect(error.message).toContain('MICROBLOG_NET_CLIENT_ID and MICROBLOG_NET_CLIENT_SECRET')
  })

  it('reconnects the same account (same id, ACTIVE again) and refuses another identity', async () => {
    const { fake, t } = await setup()
    const accountId = new URL((await signIn(t, await newLink(t))).url).searchParams.get('accountId')!
    await t.deps.db
      .update(accounts)
      .set({ status: 'EXPIRED', statusMessage: 'token expired' })
      .where(eq(accounts.id, accountId))

    const reconnect = async () =>
      (
        await (
          await t.call('POST', `/v1/accounts/${accountId}/reconnect`, { body: { redirectUrl: `${APP}/cb` } })
        ).json()
      ).url as string
    fake.oauth.signInAs({ id: '999', username: 'someone_else' })
    const refused = new URL((await signIn(t, await reconnect())).url)
    expect(refused.searchParams.get('error')).toBe('identity_mismatch')
    expect(refused.searchParams.get('message')).toContain('You signed in as someone_else')
    expect((await (await t.call('GET', `/v1/accounts/${accountId}`)).json()).status).toBe('EXPIRED')

    fake.oauth.signInAs({ id: fake.userId, username: fake.username })
    const back = new URL((await signIn(t, await reconnect())).url)
    expect(back.searchParams.get('accountId')).toBe(accountId)
    expect((await (await t.call('GET', `/v1/accounts/${accountId}`)).json()).status).toBe('ACTIVE')
    expect(await accountCount(t)).toBe(1)

    // Connecting the same identity again through a new link renews it too, rather than adding a second.
    const again = new URL((await signIn(t, await newLink(t))).url)
    expect(again.searchParams.get('accountId')).toBe(accountId)
    expect(await accountCount(t)).toBe(1)
  })

  it('revokes the token it stored on disconnect', async () => {
    const { fake, t } = await setup()
    const accountId = new URL((await signIn(t, await newLink(t))).url).searchParams.get('accountId')!
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
    const { refreshToken } = await t.deps.cipher.decrypt(row!.credentials, accountId)
    const res = await (await t.call('DELETE', `/v1/accounts/${accountId}`)).json()
    expect(res.tokenRevoked).toBe(true)
    expect(fake.oauth.revoked).toEqual([refreshToken])
  })
})
