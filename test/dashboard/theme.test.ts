import { describe, expect, it } from 'vitest'
import { cookiesOf, signInMember } from '../support/dashboard'
import { createTestApp } from '../support/test-app'

const FORM_TYPE = 'application/x-www-form-urlencoded'

describe('dashboard theme switch (POST /app/theme)', () => {
  async function signedIn() {
    const t = await createTestApp()
    const member = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId })
    const choose = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      t.app.request('/app/theme', {
        method: 'POST',
        headers: { 'content-type': FORM_TYPE, cookie: member.cookie, ...headers },
        body: new URLSearchParams(fields).toString(),
      })
    return { t, member, choose, calendar: `/app/w/${t.workspaceId}/settings` }
  }

  it('stores the choice in a cookie, goes back to the page, and every page then renders data-theme', async () => {
    const { t, member, choose, calendar } = await signedIn()
    const before = await (await t.app.request(calendar, { headers: { cookie: member.cookie } })).text()
    expect(before).toMatch(/^<!DOCTYPE html><html lang="en">/)
    expect(before).toContain('action="/app/theme"')

    const res = await choose({ _csrf: member.csrfToken, theme: 'dark', back: calendar })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(calendar)
    const line = res.headers.getSetCookie().find((l) => l.startsWith('sps_theme='))!
    expect(line).toMatch(/^sps_theme=dark;/)
    expect(line).toMatch(/HttpOnly/)
    expect(line).toMatch(/SameSite=Lax/)

    const cookie = `${member.cookie}; sps_theme=${cookiesOf(res).sps_theme}`
    const page = await t.app.request(calendar, { headers: { cookie } })
    expect(await page.text()).toContain('<html lang="en" data-theme="dark">')
    // Public pages follow the choice too.
    const signIn = await t.app.request('/app/sign-in', { headers: { cookie: 'sps_theme=light' } })
    expect(await signIn.text()).toContain('<html lang="en" data-theme="light">')

    const system = await choose({ _csrf: member.csrfToken, theme: 'system', back: calendar })
    expect(system.status).toBe(303)
    expect(system.headers.getSetCookie().find((l) => l.startsWith('sps_theme='))).toMatch(/Max-Age=0/)
    const unknown = await t.app.request(calendar, { headers: { cookie: `${member.cookie}; sps_theme=<x>` } })
    expect(await unknown.text()).toContain('<html lang="en">')
  })

  it('goes back to a dashboard path of this origin only: off-site targets land on /app', async () => {
    const { choose, member, calendar } = await signedIn()
    for (const back of [
      'https://evil.example/app',
      '//evil.example/app',
      '/app//evil.example',
      'javascript:alert(1)',
    ]) {
      const res = await choose({ _csrf: member.csrfToken, theme: 'light', back })
      expect(res.status, back).toBe(303)
      expect(res.headers.get('location'), back).toBe('/app')
    }
    const fromReferer = await choose(
      { _csrf: member.csrfToken, theme: 'light' },
      { referer: `http://localhost${calendar}?tab=1` },
    )
    expect(fromReferer.headers.get('location')).toBe(`${calendar}?tab=1`)
    const offSiteReferer = await choose(
      { _csrf: member.csrfToken, theme: 'light' },
      { referer: 'https://evil.example/app/w/x' },
    )
    expect(offSiteReferer.headers.get('location')).toBe('/app')
  })

  it('refuses a form without its CSRF token, or with another one, and sets nothing', async () => {
    const { choose } = await signedIn()
    const forms: Record<string, string>[] = [{ theme: 'dark' }, { _csrf: 'not-the-token', theme: 'dark' }]
    for (const fields of forms) {
      const res = await choose(fields)
      expect(res.status).toBe(403)
      expect(res.headers.getSetCookie().some((l) => l.startsWith('sps_theme='))).toBe(false)
    }
  })
})
