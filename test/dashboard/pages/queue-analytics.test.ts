import { describe, expect, it } from 'vitest'
import { sandboxFollowers } from '../../../src/networks/sandbox/insights'
import { collectAnalytics } from '../../../src/services/analytics/collect'
import { account, fixedClock } from '../../support/fixtures'
import { mountContentPages } from '../../support/dashboard-pages'

describe('queue slots editor', () => {
  it('saves the weekly slots and shows the next free one in the workspace zone', async () => {
    const clock = fixedClock('2026-11-25T12:00:00Z') // a Wednesday
    const p = await mountContentPages({ clock, timezone: 'Europe/Paris' })
    expect(await (await p.get('/queue')).text()).toContain('Next free slot: none')
    const res = await p.post('/queue', {
      'weekday.0': '4',
      'time.0': '09:30',
      'weekday.1': '1',
      'time.1': '17:00',
      'weekday.2': '2',
      'time.2': '08:00',
      'remove.2': '1',
      'weekday.3': '3',
      'time.3': '',
    })
    expect(res.status).toBe(303)
    const api = await (await p.t.call('GET', '/v1/queue-slots')).json()
    expect(api.slots.map((s: { weekday: number; time: string }) => `${s.weekday}@${s.time}`).sort()).toEqual([
      '1@17:00',
      '4@09:30',
    ])
    expect(api.nextFreeSlot).toBe('2026-11-26T08:30:00.000Z')
    const html = await (await p.get('/queue')).text()
    expect(html).toContain('datetime="2026-11-26T08:30:00.000Z"')
    expect(html).toContain('value="09:30"')
  })

  it('refuses two slots at the same time and keeps the schedule', async () => {
    const p = await mountContentPages()
    const res = await p.post('/queue', { 'weekday.0': '1', 'time.0': '09:00', 'weekday.1': '1', 'time.1': '09:00' })
    // The problem travels in a one-time cookie, not in the address, and the page it lands on shows it once.
    expect(res.headers.get('location')).toBe(p.page('/queue'))
    const flash = /sps_flash=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0]
    expect(res.headers.get('set-cookie')).toMatch(/sps_flash=.+; Max-Age=60; Path=\/app; HttpOnly; SameSite=Lax/)
    const shown = await p.request('/queue', { headers: { cookie: flash! } })
    const shownHtml = await shown.text()
    expect(shownHtml).toMatch(/<p class="problem" role="alert">[^<]*same weekday and time[^<]*<\/p>/)
    expect(shown.headers.get('set-cookie')).toMatch(/^sps_flash=; Max-Age=0/)
    // A crafted address cannot make the page say anything.
    const crafted = await (await p.get('/queue?problem=Call+this+number&notice=Hi')).text()
    expect(crafted).not.toContain('Call this number')
    expect((await (await p.t.call('GET', '/v1/queue-slots')).json()).slots).toEqual([])
  })
})

describe('analytics page', () => {
  it('draws the followers chart on the server and explains an empty best-times grid', async () => {
    const clock = fixedClock('2026-03-10T12:00:00Z')
    const p = await mountContentPages({ clock })
    const photo = await account(p.t, 'PHOTO_NET', 'photo')
    await collectAnalytics(p.t.deps, { workspaceId: p.t.workspaceId, now: clock.now() })
    clock.set('2026-03-11T12:00:00Z')
    await collectAnalytics(p.t.deps, { workspaceId: p.t.workspaceId, now: clock.now() })
    await p.signInAgain() // a day later the session has ended (idle for more than 12 hours)
    const html = await (await p.get('/analytics')).text()
    expect(html).toMatch(/<svg class="chart"[^>]*role="img"/)
    expect(html).toMatch(/<polyline class="chart-line" points="[\d., ]+"/)
    expect(html).toContain(`to ${new Intl.NumberFormat('en-GB').format(sandboxFollowers(photo.id, clock.now()))}`)
    expect(html).toContain('Not enough published posts yet')
    expect(html.match(/<td class="heat-0">/g)).toHaveLength(7 * 24)
  })
})
