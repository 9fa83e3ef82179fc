import { describe, expect, it } from 'vitest'
import { networkName } from '../../../src/dashboard/ui'
import { getPost } from '../../../src/services/posts/read'
import { createPost } from '../../../src/services/posts/create'
import { account } from '../../support/fixtures'
import { mountContentPages, otherWorkspaceAccount, type PagesApp } from '../../support/dashboard-pages'

const YEAR = new Date().getUTCFullYear() + 1

/** The markup of one day of the calendar. */
function dayCell(html: string, day: string): string {
  const found = new RegExp(`<section[^>]*id="day-${day}"[^>]*>(.*?)</section>`, 's').exec(html)
  if (!found) throw new Error(`no cell for ${day}`)
  return found[1]!
}

async function scheduled(p: PagesApp, scheduledAt: string, caption = 'Evening post') {
  const micro = await account(p.t, 'MICROBLOG_NET')
  const res = await p.t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [micro.id], mediaIds: [], action: 'schedule', caption, scheduledAt },
  })
  expect(res.status).toBe(200)
  return res.json()
}

describe('calendar', () => {
  it('shows a post on its day in the workspace zone, with its networks, status and a link', async () => {
    const p = await mountContentPages({ timezone: 'America/Los_Angeles' })
    // 05:00 UTC on the 15th is 21:00 on the 14th in Los Angeles.
    const post = await scheduled(p, `${YEAR}-01-15T05:00:00Z`, 'Evening <post>')
    for (const view of ['week', 'month']) {
      const html = await (await p.get(`/calendar?view=${view}&day=${YEAR}-01-14`)).text()
      const cell = dayCell(html, `${YEAR}-01-14`)
      expect(cell).toContain(`href="${p.page(`/posts/${post.id}`)}"`)
      expect(cell).toContain('21:00')
      expect(cell).toContain('Evening &lt;post&gt;')
      expect(cell).toContain(`aria-label="${networkName('MICROBLOG_NET')}"`)
      expect(cell).toContain('status-scheduled">Scheduled<')
      expect(dayCell(html, `${YEAR}-01-15`)).not.toContain(post.id)
      expect(html).toMatch(/src="\/app\/assets\/calendar\.[0-9a-f]{12}\.js"/)
    }
  })

  it('the home page is the calendar of this week', async () => {
    const p = await mountContentPages()
    const res = await p.get('')
    expect(res.status).toBe(200)
    expect((await res.text()).match(/<section[^>]*class="cal-day/g)).toHaveLength(7)
  })

  it('reschedules with the time form, in the workspace zone', async () => {
    const p = await mountContentPages({ timezone: 'Europe/Paris' })
    const post = await scheduled(p, `${YEAR}-03-02T08:00:00Z`)
    const html = await (await p.get(`/calendar?day=${YEAR}-03-02`)).text()
    expect(dayCell(html, `${YEAR}-03-02`)).toContain(`value="${YEAR}-03-02T09:00"`)
    const res = await p.post(`/posts/${post.id}/reschedule`, {
      scheduledAt: `${YEAR}-03-04T18:15`,
      back: p.page(`/calendar?day=${YEAR}-03-02`),
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toContain(p.page(`/calendar?day=${YEAR}-03-02`))
    const stored = await (await p.t.call('GET', `/v1/posts/${post.id}`)).json()
    expect(stored.scheduledAt).toBe(`${YEAR}-03-04T17:15:00.000Z`)
    const after = await (await p.get(`/calendar?day=${YEAR}-03-02`)).text()
    expect(dayCell(after, `${YEAR}-03-04`)).toContain(post.id)
    expect(dayCell(after, `${YEAR}-03-02`)).not.toContain(post.id)
  })

  it("drag and drop: the script's request moves the post, and a time in the past is refused", async () => {
    const p = await mountContentPages()
    const post = await scheduled(p, `${YEAR}-05-05T10:30:00Z`)
    const send = (scheduledAt: string) =>
      p.request(`/posts/${post.id}/reschedule`, {
        method: 'POST',
        body: new URLSearchParams({ scheduledAt }),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          'x-csrf-token': p.csrfToken,
        },
      })
    const moved = await send(`${YEAR}-05-07T10:30`)
    expect(await moved.json()).toEqual({ ok: true })
    const refused = await send('2001-01-01T10:00')
    expect(refused.status).toBe(422)
    expect((await refused.json()).ok).toBe(false)
    const stored = await (await p.t.call('GET', `/v1/posts/${post.id}`)).json()
    expect(stored.scheduledAt).toBe(`${YEAR}-05-07T10:30:00.000Z`)
  })

  it("another workspace's post cannot be rescheduled and does not show", async () => {
    const p = await mountContentPages()
    const { other, theirs } = await otherWorkspaceAccount(p.t)
    const at = `${YEAR}-06-10T10:00:00.000Z`
    const post = await createPost(p.t.deps, other.id, {
      type: 'IMAGE',
      accountIds: [theirs.id],
      mediaIds: [],
      action: 'schedule',
      caption: 'theirs',
      scheduledAt: at,
    })
    expect(await (await p.get(`/calendar?day=${YEAR}-06-10`)).text()).not.toContain(post.id)
    const res = await p.post(`/posts/${post.id}/reschedule`, { scheduledAt: `${YEAR}-06-11T10:00` })
    expect(res.status).toBe(404)
    expect((await getPost(p.t.deps.db, other.id, post.id)).scheduledAt).toBe(at)
  })
})
