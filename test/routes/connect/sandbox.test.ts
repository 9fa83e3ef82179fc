/**
 * Hosted connect of a SANDBOX account over real HTTP, as a browser goes through it: the link, our
 * start page, the simulated network's consent page, the callback, and back to the caller's page.
 */
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, connectLinks, oauthStates } from '../../../src/db/schema'
import { sha256Hex } from '../../../src/lib/crypto'
import { fixedClock } from '../../support/fixtures'
import { linkHref, readForm, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'

async function link(t: ServedApp, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v1/accounts/connect', { body })
  expect(res.status).toBe(200)
  return (await res.json()) as { url: string; expiresAt: string }
}

/** From the link to the consent page, then the owner's choice; where the browser ends up. */
async function throughConsent(t: ServedApp, url: string, decision: 'allow' | 'deny', username = 'studio') {
  const start = await visit(url)
  expect(start.response.status).toBe(200)
  const consent = await visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href)
  expect(consent.url).toContain('/sandbox/oauth/authorize')
  const form = readForm(consent.body)
  return visit(new URL(form.action, t.baseUrl).href, {
    method: 'POST',
    form: { ...form.fields, username, decision },
    stopAt: APP,
  })
}

const accountCount = async (t: ServedApp) =>
  (await t.deps.db.select({ n: count() }).from(accounts).where(eq(accounts.workspaceId, t.workspaceId)))[0]!.n

describe('hosted connect, sandbox network', () => {
  it('connects an account through the consent page and sends the owner back with its id', async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP], clock: fixedClock('2026-11-21T10:00:00Z') })
    const { url, expiresAt } = await link(t, {
      platform: 'PHOTO_NET',
      connection: 'SANDBOX',
      redirectUrl: `${APP}/done?x=1`,
    })
    expect(url.startsWith(`${t.baseUrl}/connect/`)).toBe(true)
    expect(expiresAt).toBe('2026-11-21T10:30:00.000Z')

    const start = await visit(url)
    expect(start.response.headers.get('content-security-policy')).toMatch(/default-src 'none'.*form-action 'self'/)
    expect(start.response.headers.get('referrer-policy')).toBe('no-referrer')
    expect(start.body).toContain('Connect your <span class="badge">PHOTO_NET</span> account')

    const end = await throughConsent(t, url, 'allow', 'studio <b>')
    const back = new URL(end.url)
    expect(back.origin).toBe(APP)
    expect(back.searchParams.get('x')).toBe('1')
    const accountId = back.searchParams.get('accountId')!
    const account = await (await t.call('GET', `/v1/accounts/${accountId}`)).json()
    expect(account).toMatchObject({
      platform: 'PHOTO_NET',
      connection: 'SANDBOX',
      username: 'studio <b>',
      status: 'ACTIVE',
    })
    // Only hashes of the link token and of the state are stored.
    const token = url.split('/connect/')[1]!
    const [stored] = await t.deps.db
      .select()
      .from(connectLinks)
      .where(eq(connectLinks.tokenHash, await sha256Hex(token)))
    expect(stored!.usedAt).not.toBeNull()
    const states = await t.deps.db.select().from(oauthStates).where(eq(oauthStates.linkId, stored!.id))
    const state = new URL(end.chain.find((u) => u.includes('/oauth/callback/'))!).searchParams.get('state')!
    expect(states.map((s) => s.stateHash)).toEqual([await sha256Hex(state)])
  })

  it('shows its own page without a redirectUrl, escaping what the owner typed', async () => {
    const t = await serveTestApp()
    const { url } = await link(t, { platform: 'MICROBLOG_NET', connection: 'SANDBOX' })
    const end = await throughConsent(t, url, 'allow', '<script>alert(1)</script>')
    expect(end.response.status).toBe(200)
    expect(end.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(end.body).not.toContain('<script>')
  })

  it('refuses a link used once already, and a replayed callback, storing nothing more', async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const { url } = await link(t, { platform: 'PHOTO_NET', connection: 'SANDBOX', redirectUrl: `${APP}/done` })
    const end = await throughConsent(t, url, 'allow')
    expect(await accountCount(t)).toBe(1)
    const reused = await visit(url)
    expect(reused.response.status).toBe(410)
    expect(reused.body).toContain('already used')
    const callback = end.chain.find((u) => u.includes('/oauth/callback/'))!
    const replay = await visit(callback)
    expect(replay.response.status).toBe(400)
    expect(replay.body).toContain('cannot be used twice')
    expect(await accountCount(t)).toBe(1)
  })

  it('sends the owner back with the error when consent is refused, and stores nothing', async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const { url } = await link(t, { platform: 'PHOTO_NET', connection: 'SANDBOX', redirectUrl: `${APP}/done` })
    const end = await throughConsent(t, url, 'deny')
    const back = new URL(end.url)
    expect(back.origin).toBe(APP)
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('message')).toContain('did not grant access')
    expect(back.searchParams.get('accountId')).toBeNull()
    expect(await accountCount(t)).toBe(0)
  })

  it('refuses an expired link and an expired sign-in, storing nothing', async () => {
    const clock = fixedClock('2026-11-21T10:00:00Z')
    const t = await serveTestApp({ clock })
    const first = await link(t, { platform: 'PHOTO_NET', connection: 'SANDBOX' })
    clock.set('2026-11-21T10:31:00Z')
    const expired = await visit(first.url)
    expect(expired.response.status).toBe(410)
    expect(expired.body).toContain('expired')

    const second = await link(t, { platform: 'PHOTO_NET', connection: 'SANDBOX' })
    const start = await visit(second.url)
    const consent = await visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href)
    clock.set('2026-11-21T10:47:00Z') // the state lives 15 minutes
    const form = readForm(consent.body)
    const late = await visit(new URL(form.action, t.baseUrl).href, {
      method: 'POST',
      form: { ...form.fields, decision: 'allow' },
    })
    expect(late.response.status).toBe(410)
    expect(late.body).toContain('expired')
    expect(await accountCount(t)).toBe(0)
  })

  it('refuses a state of a sign-in for another network', async () => {
    const t = await serveTestApp()
    const { url } = await link(t, { platform: 'PHOTO_NET', connection: 'SANDBOX' })
    const start = await visit(url)
    const consent = await visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href)
    const state = readForm(consent.body).fields.state!
    const foreign = await visit(`${t.baseUrl}/oauth/callback/MICROBLOG_NET?code=eA&state=${state}`)
    expect(foreign.response.status).toBe(400)
    expect(foreign.body).toContain('not one we started')
    expect(await accountCount(t)).toBe(0)
  })

  it('refuses a redirectUrl outside the allowed origins (no open redirect)', async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    for (const redirectUrl of ['https://evil.test/x', 'http://app.test.evil.test/', 'javascript:alert(1)']) {
      const res = await t.call('POST', '/v1/accounts/connect', {
        body: { platform: 'PHOTO_NET', connection: 'SANDBOX', redirectUrl },
      })
      expect(res.status, redirectUrl).toBeGreaterThanOrEqual(400)
      expect((await res.json()).error.details[0].path).toBe('redirectUrl')
    }
    const none = await serveTestApp()
    const res = await none.call('POST', '/v1/accounts/connect', {
      body: { platform: 'PHOTO_NET', connection: 'SANDBOX', redirectUrl: `${APP}/x` },
    })
    expect(res.status).toBe(422)
    expect((await res.json()).error.message).toContain('CONNECT_REDIRECT_ORIGINS')
  })

  it("accepts a redirectUrl on the deployment's own origin (the web dashboard's) without configuration", async () => {
    const t = await serveTestApp()
    const res = await t.call('POST', '/v1/accounts/connect', {
      body: { platform: 'PHOTO_NET', connection: 'SANDBOX', redirectUrl: `${t.baseUrl}/app/w/ws_x/accounts` },
    })
    expect(res.status).toBe(200)
  })

  it('connects into the workspace of the link only; a reconnect link for another workspace is 404', async () => {
    const mine = await serveTestApp()
    const theirs = await serveTestApp()
    const { url } = await link(mine, { platform: 'PHOTO_NET', connection: 'SANDBOX' })
    await throughConsent(mine, url, 'allow', 'shared')
    expect(await accountCount(mine)).toBe(1)
    expect(await accountCount(theirs)).toBe(0)
    const [acc] = await mine.deps.db.select().from(accounts).where(eq(accounts.workspaceId, mine.workspaceId))
    const res = await theirs.call('POST', `/v1/accounts/${acc!.id}/reconnect`, { body: {} })
    expect(res.status).toBe(404)
  })

  it('reconnects a disconnected account under the same id, and refuses another identity in words', async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const { url } = await link(t, { platform: 'PHOTO_NET', connection: 'SANDBOX', redirectUrl: `${APP}/done` })
    const id = new URL((await throughConsent(t, url, 'allow', 'studio')).url).searchParams.get('accountId')!
    await t.call('DELETE', `/v1/accounts/${id}`)

    const again = await (
      await t.call('POST', `/v1/accounts/${id}/reconnect`, { body: { redirectUrl: `${APP}/done` } })
    ).json()
    const other = new URL((await throughConsent(t, again.url, 'allow', 'someone-else')).url)
    expect(other.searchParams.get('error')).toBe('identity_mismatch')
    expect(other.searchParams.get('message')).toContain('this link reconnects studio')
    expect((await (await t.call('GET', `/v1/accounts/${id}`)).json()).status).toBe('DISCONNECTED')

    const retry = await (
      await t.call('POST', `/v1/accounts/${id}/reconnect`, { body: { redirectUrl: `${APP}/done` } })
    ).json()
    const same = new URL((await throughConsent(t, retry.url, 'allow', 'studio')).url)
    expect(same.searchParams.get('accountId')).toBe(id)
    const account = await (await t.call('GET', `/v1/accounts/${id}`)).json()
    expect(account).toMatchObject({ id, status: 'ACTIVE', statusReason: null })
    expect(await accountCount(t)).toBe(1)
  })
})
