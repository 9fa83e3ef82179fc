import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createPost } from '../../../src/services/posts/create'
import { account } from '../../support/fixtures'
import { mountContentPages, otherWorkspaceAccount, type PagesApp } from '../../support/dashboard-pages'

const YEAR = new Date().getUTCFullYear() + 1

/** The markup of one hour slot of the week grid (up to the next slot or the end of the day). */
function slotOf(html: string, day: string, hour: string): string {
  const start = html.indexOf(`data-day="${day}" data-hour="${hour}"`)
  if (start < 0) throw new Error(`no slot ${day} ${hour}`)
  const ends = [html.indexOf('class="cal-slot ', start), html.indexOf('</section>', start)].filter((i) => i > 0)
  return html.slice(start, Math.min(...ends))
}

/** The markup of one day of the month or the list. */
function dayCell(html: string, day: string): string {
  const start = html.indexOf(`id="day-${day}"`)
  if (start < 0) throw new Error(`no cell for ${day}`)
  return html.slice(start, html.indexOf('</section>', start))
}

async function schedule(p: PagesApp, accountIds: string[], scheduledAt: string, caption = 'A post') {
  const res = await p.t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds, mediaIds: [], action: 'schedule', caption, scheduledAt },
  })
  expect(res.status).toBe(200)
  return (await res.json()) as { id: string }
}

const postsIn = (html: string) => (html.match(/class="cal-post /g) ?? []).length

describe('calendar views', () => {
  it('week: each post sits in the hour slot of its time in the workspace zone', async () => {
    const p = await mountContentPages({ timezone: 'America/Los_Angeles' })
    const micro = await account(p.t, 'MICROBLOG_NET')
    // 05:00 UTC on the 15th is 21:00 on the 14th in Los Angeles; 16:45 UTC on the 16th is 08:45 there.
    const late = await schedule(p, [micro.id], `${YEAR}-01-15T05:00:00Z`, 'Late one')
    const early = await schedule(p, [micro.id], `${YEAR}-01-16T16:45:00Z`, 'Early one')
    const html = await (await p.get(`/calendar?view=week&day=${YEAR}-01-14`)).text()
    expect(slotOf(html, `${YEAR}-01-14`, '21')).toContain(`id="post-${late.id}"`)
    expect(slotOf(html, `${YEAR}-01-14`, '21')).toContain('>21:00</time>')
    expect(slotOf(html, `${YEAR}-01-16`, '08')).toContain(`id="post-${early.id}"`)
    expect(slotOf(html, `${YEAR}-01-16`, '08')).toContain('>08:45</time>')
    expect(dayCell(html, `${YEAR}-01-15`)).not.toContain(late.id)
    expect(html.match(new RegExp(`id="post-${late.id}"`, 'g'))).toHaveLength(1)
    // The grid shows the hours its posts need past the working day (21:00 here), and no more.
    expect(html).toContain(`data-day="${YEAR}-01-14" data-hour="21"`)
    expect(html).not.toContain(`data-day="${YEAR}-01-14" data-hour="22"`)
  })

  it('a crowded hour shows two posts and "+N more"; a crowded month day three, linking to its list', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const day = `${YEAR}-04-07`
    const ids: string[] = []
    for (const minute of ['00', '10', '20', '30', '40'])
      ids.push((await schedule(p, [micro.id], `${day}T10:${minute}:00Z`, `Post ${minute}`)).id)
    const week = await (await p.get(`/calendar?view=week&day=${day}`)).text()
    const slot = slotOf(week, day, '10')
    expect(postsIn(slot)).toBe(2)
    expect(slot).toContain('+3 more')
    const month = await (await p.get(`/calendar?view=month&day=${day}`)).text()
    const cell = dayCell(month, day)
    expect(postsIn(cell)).toBe(3)
    expect(cell).toContain(ids[0]!)
    expect(cell).not.toContain(ids[4]!)
    expect(cell).toMatch(/href="[^"]*view=list&amp;on=\d{4}-04-07"[^>]*>\+2 more</)
    const list = await (await p.get(`/calendar?view=list&on=${day}`)).text()
    for (const id of ids) expect(dayCell(list, day)).toContain(`id="post-${id}"`)
  })

  it('list: filters by account, network and status; another workspace’s account id shows nothing of theirs', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const pro = await account(p.t, 'PROFESSIONAL_NET')
    const onMicro = await schedule(p, [micro.id], `${YEAR}-05-01T09:00:00Z`, 'Only micro')
    const onPro = await schedule(p, [pro.id], `${YEAR}-05-02T09:00:00Z`, 'Only pro')
    const failed = await schedule(p, [micro.id, pro.id], `${YEAR}-05-03T09:00:00Z`, 'Went wrong')
    await p.t.deps.db.execute(sql`update posts set status = 'FAILED' where id = ${failed.id}`)
    await p.t.deps.db.execute(sql`update targets set status = 'FAILED' where post_id = ${failed.id}`)
    const { other, theirs: theirAccount } = await otherWorkspaceAccount(p.t)
    const theirs = await createPost(p.t.deps, other.id, {
      type: 'IMAGE',
      accountIds: [theirAccount.id],
      mediaIds: [],
      action: 'schedule',
      caption: 'Their secret plan',
      scheduledAt: `${YEAR}-05-01T10:00:00.000Z`,
    })
    const list = async (query: string) => (await p.get(`/calendar?view=list&${query}`)).text()
    // The posts a page shows, in its order.
    const shown = (html: string) =>
      [onMicro.id, onPro.id, failed.id, theirs.id]
        .filter((id) => html.includes(`id="post-${id}"`))
        .sort((a, b) => html.indexOf(`id="post-${a}"`) - html.indexOf(`id="post-${b}"`))

    expect(shown(await list(`account=${micro.id}`))).toEqual([failed.id, onMicro.id])
    expect(shown(await list('network=PROFESSIONAL_NET'))).toEqual([failed.id, onPro.id])
    expect(shown(await list('status=failed'))).toEqual([failed.id])
    expect(shown(await list(`status=upcoming&account=${pro.id}`))).toEqual([onPro.id])
    // The filter form keeps what was chosen.
    expect(await list(`account=${micro.id}`)).toMatch(new RegExp(`<option value="${micro.id}" selected`))
    // Another workspace's account is not a filter here: the workspace's own posts, none of theirs.
    const foreign = await list(`account=${theirAccount.id}`)
    expect(shown(foreign)).toEqual([failed.id, onPro.id, onMicro.id])
    expect(foreign).not.toContain('Their secret plan')
    expect(foreign).not.toContain('theirs')
    const week = await (await p.get(`/calendar?view=week&day=${YEAR}-05-01&account=${theirAccount.id}`)).text()
    expect(week).not.toContain(theirs.id)
  })

  it('list: a page at a time, with links to the next and previous pages', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const ws = p.t.workspaceId
    await p.t.deps.db.execute(sql`insert into posts (id, workspace_id, status, type, caption, media_ids, scheduled_at, created_at, updated_at)
      select 'post_page_' || lpad(g::text, 2, '0'), ${ws}, 'SCHEDULED', 'IMAGE', 'Paged ' || g, '[]'::jsonb,
        ${`${YEAR}-06-01T00:00:00Z`}::timestamptz + (g || ' hours')::interval, now(), now()
      from generate_series(1, 30) g`)
    await p.t.deps.db.execute(sql`insert into targets (id, post_id, workspace_id, account_id, platform, position, status)
      select 'tgt_page_' || g, 'post_page_' || lpad(g::text, 2, '0'), ${ws}, ${micro.id}, 'MICROBLOG_NET', 0, 'PENDING'
      from generate_series(1, 30) g`)
    const first = await (await p.get('/calendar?view=list&status=upcoming')).text()
    expect(postsIn(first)).toBe(25)
    expect(first).toContain('id="post-post_page_01"')
    expect(first).toContain('1-25 of 30 posts')
    expect(first).toMatch(/href="[^"]*status=upcoming&amp;page=2" rel="next"/)
    const second = await (await p.get('/calendar?view=list&status=upcoming&page=2')).text()
    expect(postsIn(second)).toBe(5)
    expect(second).toContain('id="post-post_page_30"')
    expect(second).not.toContain('id="post-post_page_01"')
    expect(second).toContain('rel="prev"')
  })

  it('a failed target shows its retry, which goes through the retry service and comes back', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const post = await schedule(p, [micro.id], `${YEAR}-07-01T09:00:00Z`, 'Retry me')
    await p.t.deps.db.execute(sql`update posts set status = 'FAILED' where id = ${post.id}`)
    await p.t.deps.db.execute(sql`update targets set status = 'FAILED' where post_id = ${post.id}`)
    const here = `/calendar?view=week&day=${YEAR}-07-01`
    const html = await (await p.get(here)).text()
    const slot = slotOf(html, `${YEAR}-07-01`, '09')
    expect(slot).toContain('has-failed')
    expect(slot).toContain(`action="${p.page(`/calendar/posts/${post.id}/retry`)}"`)
    const res = await p.post(`/calendar/posts/${post.id}/retry`, { back: p.page(here) })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(p.page(here))
    const stored = await (await p.t.call('GET', `/v1/posts/${post.id}`)).json()
    expect(stored.targets[0].status).not.toBe('FAILED')
    const again = await p.post(`/calendar/posts/${post.id}/retry`, { back: p.page(here) })
    expect(again.status).toBe(303) // nothing left to retry: said on the calendar, not an error page
    const missing = await p.post('/calendar/posts/post_nope/retry', {})
    expect(missing.status).toBe(404)
  })
})
