import { describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { cookiesOf, signInMember, submitSignIn } from '../support/dashboard'
import { eq } from 'drizzle-orm'
import { sessions } from '../../src/db/schema'
import { runScheduledJobs, SCHEDULED_JOBS } from '../../src/services/scheduled-jobs'
import { fixedClock } from '../support/fixtures'
import { createTestApp, randomIp, type TestApp } from '../support/test-app'

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const FORM_TYPE = 'application/x-www-form-urlencoded'

describe('dashboard sign-up, sign-in, sessions', () => {
  it('signs up: a workspace they own, a session cookie HttpOnly and Lax (Secure except plain http to loopback)', async () => {
    const { app } = await createTestApp()
    const page = await app.request('/app/sign-up')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const formCookie = cookiesOf(page).sps_form!
    const email = `new-${randomBase62(6)}@example.com`
    const res = await app.request('/app/sign-up', {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, cookie: `sps_form=${formCookie}` },
      body: form({ _csrf: formCookie, name: 'Nia', email, password: 'a long password', workspaceName: 'Nia & Co' }),
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toMatch(/^\/app\/w\/ws_/)
    const setCookie = res.headers.getSetCookie().find((l) => l.startsWith('sps_session='))!
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Lax/)
    expect(setCookie).not.toMatch(/Secure/)
    const settings = await app.request(`${res.headers.get('location')}/settings`, {
      headers: { cookie: `sps_session=${cookiesOf(res).sps_session}` },
    })
    expect(settings.status).toBe(200)
    expect(await settings.text()).toContain('Nia &amp; Co')

    const secure = await app.request('https://dash.example.com/app/sign-in')
    expect(secure.headers.getSetCookie()[0]).toMatch(/Secure/)
  })

  /** Submits the sign-up form; the answer and its page. */
  async function submitSignUp(app: TestApp['app'], fields: Record<string, string>) {
    const page = await app.request('/app/sign-up')
    const formCookie = cookiesOf(page).sps_form!
    const res = await app.request('/app/sign-up', {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, cookie: `sps_form=${formCookie}`, 'x-forwarded-for': randomIp() },
      body: form({ _csrf: formCookie, ...fields }),
    })
    return { res, html: await res.text() }
  }

  /** The text shown beside a field (its error line, tied to it by aria-describedby), or null. */
  const fieldError = (html: string, name: string) =>
    new RegExp(`<p id="f-${name}-error" class="error">([^<]*)</p>`).exec(html)?.[1] ?? null
  const fieldValue = (html: string, name: string) =>
    new RegExp(`<input id="f-${name}" name="${name}"[^>]* value="([^"]*)"`).exec(html)?.[1] ?? null

  it("refuses the probe's weak passwords with the reason beside the field, keeping the other fields", async () => {
    const { app } = await createTestApp()
    const expected: Array<[string, RegExp]> = [
      ['        ', /only of spaces/],
      ['password', /among the most common ones; choose another/],
      ['12345678', /among the most common ones; choose another/],
    ]
    for (const [password, reason] of expected) {
      const email = `weak-${randomBase62(6)}@example.com`
      const fields = { name: 'Wen Weak', email, password, workspaceName: 'Weak &amp; Co' }
      const { res, html } = await submitSignUp(app, { ...fields, workspaceName: 'Weak & Co' })
      expect(res.status, JSON.stringify(password)).toBe(400)
      expect(fieldError(html, 'password'), JSON.stringify(password)).toMatch(reason)
      expect(html).toContain('aria-describedby="f-password-hint f-password-error"')
      expect(fieldValue(html, 'name')).toBe(fields.name)
      expect(fieldValue(html, 'email')).toBe(email)
      expect(fieldValue(html, 'workspaceName')).toBe(fields.workspaceName)
      // The password itself is never sent back.
      expect(fieldValue(html, 'password')).toBe('')
      expect(res.headers.getSetCookie().some((l) => l.startsWith('sps_session='))).toBe(false)
    }
  })

  it("refuses a password built from the user's own workspace name, and accepts a strong passphrase", async () => {
    const { app } = await createTestApp()
    const base = { name: 'Nia Okafor', workspaceName: 'Okafor Bakery' }
    const refused = await submitSignUp(app, {
      ...base,
      email: `nia-${randomBase62(6)}@example.com`,
      password: 'OkaforBakery2024',
    })
    expect(refused.res.status).toBe(400)
    expect(fieldError(refused.html, 'password')).toMatch(/built from the workspace name/)
    const accepted = await submitSignUp(app, {
      ...base,
      email: `nia-${randomBase62(6)}@example.com`,
      password: 'velvet harbour lantern at dawn',
    })
    expect(accepted.res.status).toBe(303)
    expect(accepted.res.headers.get('location')).toMatch(/^\/app\/w\/ws_/)
  })

  it('refuses a sign-up or sign-in form without its CSRF token', async () => {
    const { app } = await createTestApp()
    const res = await app.request('/app/sign-in', {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE },
      body: form({ email: 'a@example.com', password: 'whatever1' }),
    })
    expect(res.status).toBe(403)
  })

  it('answers a wrong password and an unknown email the same way', async () => {
    const { app, deps } = await createTestApp()
    const email = `known-${randomBase62(6)}@example.com`
    await createUser(deps, { email, name: 'Known', password: 'right password' })
    const wrong = await submitSignIn(app, email, 'wrong password', '10.1.1.1')
    const unknown = await submitSignIn(app, `nobody-${randomBase62(6)}@example.com`, 'wrong password', '10.1.1.2')
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    const message = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1]
    expect(message(await wrong.text())).toBe('The email or the password is wrong.')
    expect(message(await unknown.text())).toBe('The email or the password is wrong.')
  })

  it('locks an account after repeated attempts, with the wait in the page and Retry-After', async () => {
    const { app, deps } = await createTestApp()
    const email = `locked-${randomBase62(6)}@example.com`
    await createUser(deps, { email, name: 'Locked', password: 'right password' })
    for (let i = 0; i < 10; i++) expect((await submitSignIn(app, email, `wrong-${i}`, `10.2.0.${i}`)).status).toBe(401)
    const locked = await submitSignIn(app, email, 'right password', '10.2.1.1')
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await locked.text()).toMatch(/locked for now\. Try again in \d+ (minutes|seconds)\./)
  })

  it('rotates the session at sign-in and revokes it at sign-out', async () => {
    const t = await createTestApp()
    const { cookie, csrfToken, email } = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId })
    const settings = `/app/w/${t.workspaceId}/settings`
    expect((await t.app.request(settings, { headers: { cookie } })).status).toBe(200)
    const out = await t.app.request('/app/sign-out', {
      method: 'POST',
      headers: { cookie, 'content-type': FORM_TYPE },
      body: form({ _csrf: csrfToken }),
    })
    expect(out.status).toBe(303)
    const after = await t.app.request(settings, { headers: { cookie } })
    expect(after.status).toBe(303)
    expect(after.headers.get('location')).toBe(`/app/sign-in?next=${encodeURIComponent(settings)}`)
    // Signing in again from a browser that has a session replaces it: the old cookie is worth nothing after.
    const again = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId })
    const password = 'rotate password'
    const rotating = await createUser(t.deps, { email: `r-${randomBase62(6)}@example.com`, name: 'R', password })
    await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, rotating.id, 'member'))
    const formCookie = cookiesOf(await t.app.request('/app/sign-in')).sps_form!
    const rotated = await t.app.request('/app/sign-in', {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, cookie: `sps_form=${formCookie}; ${again.cookie}` },
      body: form({ _csrf: formCookie, email: rotating.email, password }),
    })
    expect(rotated.status).toBe(303)
    expect(cookiesOf(rotated).sps_session).not.toBe(again.cookie.split('=')[1])
    expect((await t.app.request(settings, { headers: { cookie: again.cookie } })).status).toBe(303)
    expect(email).not.toBe(again.email)
  })

  it('ends a session left idle for 12 hours (each use extends it), and the cleanup job removes it a day later', async () => {
    const clock = fixedClock('2026-06-01T08:00:00Z')
    const t = await createTestApp({ clock })
    const { cookie, userId } = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId })
    const settings = `/app/w/${t.workspaceId}/settings`
    const open = async () => (await t.app.request(settings, { headers: { cookie } })).status
    const later = (hours: number) => clock.set(new Date(clock.now().getTime() + hours * 3600_000).toISOString())

    later(11)
    expect(await open()).toBe(200) // used after 11 hours: still signed in, and the use is recorded
    later(11)
    expect(await open()).toBe(200) // 22 hours since sign-in, 11 since the last use
    later(12.1)
    expect(await open()).toBe(303) // idle for more than 12 hours: signed out
    const rows = () => t.deps.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))
    const cleanup = SCHEDULED_JOBS.filter((j) => j.name === 'sessions_cleanup')
    await runScheduledJobs(t.deps, cleanup)
    expect(await rows()).toHaveLength(1) // ended less than a day ago: kept for now
    later(24)
    await runScheduledJobs(t.deps, cleanup)
    expect(await rows()).toHaveLength(0)
  })
})
