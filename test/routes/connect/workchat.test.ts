/**
 * Hosted connect of the workplace chat network over real HTTP against its fake: the OAuth v2 bot
 * install (comma-joined bot scopes, no PKCE, the client with HTTP Basic at `oauth.v2.access`, its
 * `ok:false` refusals read in words; with token rotation the refresh token and expiry are kept,
 * without it the token never expires), and the form for a custom app's pasted bot token.
 */
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { startWorkchatFake } from '../../fakes/workchat'
import { linkHref, readForm, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'
const CLIENT = { clientId: '1111.2222', clientSecret: 'wc-secret' }

async function setup(rotation: boolean) {
  const fake = await startWorkchatFake({ rotation })
  const t = await serveTestApp({
    connectRedirectOrigins: [APP],
    networks: {
      origins: { WORKCHAT_NET_API_URL: fake.url, WORKCHAT_NET_AUTHORIZE_URL: fake.url },
      clients: { WORKCHAT_NET: CLIENT },
    },
  })
  return { fake, t }
}

async function install(t: ServedApp) {
  const res = await t.call('POST', '/v1/accounts/connect', {
    body: { platform: 'WORKCHAT_NET', redirectUrl: `${APP}/cb` },
  })
  expect(res.status).toBe(200)
  const start = await visit((await res.json()).url)
  return new URL((await visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href, { stopAt: APP })).url)
}

const stored = async (t: ServedApp, accountId: string) => {
  const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
  return { row: row!, credentials: await t.deps.cipher.decrypt(row!.credentials, accountId) }
}
const accountCount = async (t: ServedApp) =>
  (await t.deps.db.select({ n: count() }).from(accounts).where(eq(accounts.workspaceId, t.workspaceId)))[0]!.n

describe('hosted connect, WORKCHAT_NET', () => {
  it('installs the bot with its scopes; without token rotation the token never expires', async () => {
    const { fake, t } = await setup(false)
    const back = await install(t)
    const accountId = back.searchParams.get('accountId')!
    expect(accountId, back.href).toMatch(/^acc_/)
    const [authorize] = fake.oauth.authorizeRequests
    expect(authorize!.get('scope')).toBe(
      'chat:write,channels:read,groups:read,channels:join,files:write,channels:history,groups:history,reactions:write',
    )
    expect(authorize!.get('code_challenge')).toBeNull()
    expect(authorize!.get('redirect_uri')).toBe(`${t.baseUrl}/oauth/callback/WORKCHAT_NET`)
    const exchange = fake.calls('POST', '/api/oauth.v2.access')[0]!
    expect(exchange.headers.authorization).toBe(`Basic ${btoa('1111.2222:wc-secret')}`)
    const account = await (await t.call('GET', `/v1/accounts/${accountId}`)).json()
    expect(account).toMatchObject({ platform: 'WORKCHAT_NET', connection: 'DIRECT_LOGIN', status: 'ACTIVE' })
    expect(account.tokenExpiresAt).toBeNull()
    const { row, credentials } = await stored(t, accountId)
    expect(row.externalId).toBe('T0TEAM001:U0BOT0001')
    expect(credentials).toEqual({
      accessToken: fake.state.accessToken,
      botUserId: 'U0BOT0001',
      teamId: 'T0TEAM001',
    })
  })

  it('keeps the refresh token and expiry of an app with token rotation', async () => {
    const { fake, t } = await setup(true)
    const accountId = (await install(t)).searchParams.get('accountId')!
    const { credentials } = await stored(t, accountId)
    expect(credentials).toMatchObject({
      accessToken: expect.stringMatching(/^xoxe\.xoxb-/),
      refreshToken: fake.state.refreshToken,
      expiresAt: expect.any(String),
    })
    const account = await (await t.call('GET', `/v1/accounts/${accountId}`)).json()
    expect(Date.parse(account.tokenExpiresAt) - Date.now()).toBeGreaterThan(11 * 3600_000)
  })

  it('stores nothing when the install is refused or the code is answered ok:false', async () => {
    const { fake, t } = await setup(false)
    fake.oauth.setConsent('deny')
    expect((await install(t)).searchParams.get('error')).toBe('access_denied')
    fake.oauth.setConsent('approve')
    fake.oauth.failNextExchange({ status: 400, json: { error: 'invalid_grant' } })
    const failed = await install(t)
    expect(failed.searchParams.get('error')).toBe('exchange_failed')
    expect(failed.searchParams.get('message')).toContain('invalid_code')
    expect(await accountCount(t)).toBe(0)
  })

  it('connects a pasted bot token with the form, checked with auth.test; refuses a wrong one in words', async () => {
    const { fake, t } = await setup(false)
    const res = await t.call('POST', '/v1/accounts/connect', {
      body: { platform: 'WORKCHAT_NET', connection: 'BOT_TOKEN', redirectUrl: `${APP}/cb` },
    })
    expect(res.status).toBe(200)
    const page = await visit((await res.json()).url)
    const form = readForm(page.body)
    expect(Object.keys(form.fields)).toEqual(['botToken'])
    expect(page.body).toMatch(/name="botToken" type="password"/)
    const submit = (fields: Record<string, string>) =>
      visit(new URL(form.action, t.baseUrl).href, { method: 'POST', form: fields, stopAt: APP })
    const refused = await submit({ botToken: 'xoxb-1-wrong' })
    expect(refused.response.status).toBe(422)
    expect(refused.body).toContain('the token is not valid')
    expect(refused.body).not.toContain('xoxb-1-wrong')
    expect(await accountCount(t)).toBe(0)
    const done = new URL((await submit({ botToken: fake.state.accessToken })).url)
    const accountId = done.searchParams.get('accountId')!
    const account = await (await t.call('GET', `/v1/accounts/${accountId}`)).json()
    expect(account).toMatchObject({ platform: 'WORKCHAT_NET', connection: 'BOT_TOKEN', username: 'publisher @ Acme' })
    expect((await stored(t, accountId)).credentials).toMatchObject({ botUserId: 'U0BOT0001', teamId: 'T0TEAM001' })
  })
})
