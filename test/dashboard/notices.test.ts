/**
 * Notices after a redirect: carried by the short-lived HttpOnly cookie `sps_flash`, shown once on the
 * page the redirect lands on; nothing a page says comes from its address, so a crafted link cannot
 * make the dashboard say someone else's words.
 */
import { describe, expect, it } from 'vitest'
import { mountContentPages } from '../support/dashboard-pages'

const FORGED = 'Your account is suspended: call 555-0100'

describe('notices', () => {
  it('survive the redirect in a one-minute HttpOnly cookie and are shown once', async () => {
    const p = await mountContentPages()
    const refused = await p.post('/accounts/connect', { platform: '' })
    expect(refused.status).toBe(303)
    expect(refused.headers.get('location')).toBe(p.page('/accounts'))
    expect(refused.headers.get('location')).not.toContain('?')
    const setCookie = refused.headers.get('set-cookie') ?? ''
    expect(setCookie).toMatch(/sps_flash=[^;]+;.*Max-Age=60/)
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/Path=\/app/)
    const flash = /sps_flash=[^;]+/.exec(setCookie)![0]

    const landed = await p.request('/accounts', { headers: { cookie: flash } })
    const html = await landed.text()
    expect(html).toContain('<p class="problem" role="alert">Choose a network.</p>')
    // Read once: the page clears the cookie, so the next visit says nothing.
    expect(landed.headers.get('set-cookie')).toMatch(/sps_flash=;.*Max-Age=0/)
    expect(await (await p.get('/accounts')).text()).not.toContain('Choose a network.')
  })

  it('are never read from the address: a forged query string shows nothing on any page', async () => {
    const p = await mountContentPages({ role: 'owner' })
    const forged = new URLSearchParams({
      notice: FORGED,
      problem: FORGED,
      message: FORGED,
      error: FORGED,
      flash: FORGED,
      success: FORGED,
    }).toString()
    const pages = [
      '',
      '/calendar',
      '/compose',
      '/accounts',
      '/media',
      '/queue',
      '/analytics',
      '/settings',
      '/settings/members',
      '/settings/tokens',
      '/settings/webhooks',
      '/settings/review-links',
    ]
    for (const path of pages) {
      const res = await p.get(`${path}?${forged}`)
      expect(res.status, path).toBe(200)
      const html = await res.text()
      expect(html, path).not.toContain('555-0100')
      expect(html, path).not.toContain('suspended')
    }
    for (const path of ['/app/sign-in', '/app/sign-up', '/app/no-such-page']) {
      const html = await (await p.absolute(`${path}?${forged}`)).text()
      expect(html, path).not.toContain('555-0100')
    }
  })
})
