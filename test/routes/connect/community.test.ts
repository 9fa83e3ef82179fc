/**
 * Hosted connect of a community-network account (Lemmy) over real HTTP against its loopback fake:
 * the form (instance, username or email, password, two-factor code), the login made once and only
 * its session stored (never the password), wrong passwords and missing codes answered in words,
 * reconnect of an account whose session the instance dropped, and an instance at a private
 * address refused by the outbound guard before anything is called.
 */
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { startCommunityFake } from '../../fakes/community'
import { readForm, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'

const accountCount = async (t: ServedApp) =>
  (await t.deps.db.select({ n: count() }).from(accounts).where(eq(accounts.workspaceId, t.workspaceId)))[0]!.n

async function openForm(t: ServedApp, path = '/v1/accounts/connect', body: Record<string, unknown> = {}) {
  const res = await t.call('POST', path, { body: { platform: 'COMMUNITY_NET', redirectUrl: `${APP}/cb`, ...body } })
  expect(res.status).toBe(200)
  const page = await visit((await res.json()).url)
  expect(page.response.status).toBe(200)
  return { page, form: readForm(page.body) }
}

const submit = (t: ServedApp, action: string, fields: Record<string, string>) =>
  visit(new URL(action, t.baseUrl).href, { method: 'POST', form: fields, stopAt: APP })

describe('hosted connect, community network', () => {
  it('asks for instance, login and password; stores the session, not the password', async () => {
    const fake = await startCommunityFake({ now: () => new Date() })
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const { page, form } = await openForm(t)
    expect(Object.keys(form.fields)).toEqual(['instanceUrl', 'username', 'password', 'totpToken'])
    expect(page.body).toMatch(/name="password" type="password"/)

    const wrong = await submit(t, form.action, { instanceUrl: fake.url, username: 'alice', password: 'nope' })
    expect(wrong.response.status).toBe(422)
    expect(wrong.body).toContain('wrong username or password')
    expect(wrong.body).not.toContain('nope')
    expect(await accountCount(t)).toBe(0)

    // Login by email works as well as by name.
    const done = await submit(t, form.action, {
      instanceUrl: fake.url,
      username: fake.state.email,
      password: fake.password,
    })
    const accountId = new URL(done.url).searchParams.get('accountId')!
    const account = await (await t.call('GET', `/v1/accounts/${accountId}`)).json()
    const host = new URL(fake.url).host
    expect(account).toMatchObject({ platform: 'COMMUNITY_NET', connection: 'APP_PASSWORD', username: `alice@${host}` })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
    expect(row!.externalId).toBe(`${fake.url}/u/alice`)
    const stored = await t.deps.cipher.decrypt(row!.credentials, accountId)
    expect(stored).toEqual({ instanceUrl: fake.url, username: 'alice', jwt: expect.any(String), personId: 7 })
    expect(fake.state.sessions.has(stored.jwt as string)).toBe(true)
    expect(JSON.stringify(stored)).not.toContain(fake.password)
  })

  it('asks for the two-factor code when the account has one, and refuses a wrong code', async () => {
    const fake = await startCommunityFake({ now: () => new Date(), totp: '123456' })
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const { form } = await openForm(t)
    const base = { instanceUrl: fake.url, username: 'alice', password: fake.password }
    const missing = await submit(t, form.action, base)
    expect(missing.response.status).toBe(422)
    expect(missing.body).toContain('two-factor authentication: enter the code')
    const wrong = await submit(t, form.action, { ...base, totpToken: '654321' })
    expect(wrong.body).toContain('the two-factor code was not accepted')
    const malformed = await submit(t, form.action, { ...base, totpToken: 'abc' })
    expect(malformed.body).toContain('6-digit code')
    const done = await submit(t, form.action, { ...base, totpToken: '123456' })
    expect(new URL(done.url).searchParams.get('accountId')).toMatch(/^acc/)
    expect(await accountCount(t)).toBe(1)
  })

  it('reconnects an account whose session the instance dropped: same account, ACTIVE, a new session', async () => {
    const fake = await startCommunityFake({ now: () => new Date() })
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const first = await openForm(t)
    const creds = { instanceUrl: fake.url, username: 'alice', password: fake.password }
    const accountId = new URL((await submit(t, first.form.action, creds)).url).searchParams.get('accountId')!
    await t.deps.db
      .update(accounts)
      .set({ status: 'EXPIRED', statusMessage: 'session refused' })
      .where(eq(accounts.id, accountId))
    fake.endSessions()

    const again = await openForm(t, `/v1/accounts/${accountId}/reconnect`)
    const back = new URL((await submit(t, again.form.action, creds)).url)
    expect(back.searchParams.get('accountId')).toBe(accountId)
    expect((await (await t.call('GET', `/v1/accounts/${accountId}`)).json()).status).toBe('ACTIVE')
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
    const { jwt } = await t.deps.cipher.decrypt(row!.credentials, accountId)
    expect(fake.state.sessions.has(jwt as string)).toBe(true)
    expect(await accountCount(t)).toBe(1)
  })

  it('refuses an instance at a private address without calling it, and stores nothing', async () => {
    const fake = await startCommunityFake({ now: () => new Date() })
    const t = await serveTestApp({ allowPrivateUrls: false, connectRedirectOrigins: [APP] })
    const { form } = await openForm(t)
    const port = new URL(fake.url).port
    for (const instanceUrl of [`https://127.0.0.1:${port}`, 'https://10.1.2.3', 'https://[::1]']) {
      const refused = await submit(t, form.action, { instanceUrl, username: 'alice', password: fake.password })
      expect(refused.response.status, instanceUrl).toBe(422)
      expect(refused.body).toContain('instanceUrl must be a public https address')
    }
    const plain = await submit(t, form.action, { instanceUrl: fake.url, username: 'alice', password: fake.password })
    expect(plain.body).toContain('must be an https URL')
    expect(fake.server.requests).toHaveLength(0)
    expect(await accountCount(t)).toBe(0)
  })
})
