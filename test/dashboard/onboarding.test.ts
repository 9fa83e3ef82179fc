/**
 * The first-run checklist on the workspace's home: each step ticked from the workspace's own data
 * (whoever took it, through the API here), linking to the page that does it, gone once all are done.
 */
import { describe, expect, it } from 'vitest'
import { account } from '../support/fixtures'
import { mountContentPages } from '../support/dashboard-pages'

/** The checklist's step `key` as rendered, or undefined when the page has none. */
function step(html: string, key: string): string | undefined {
  return new RegExp(`<li class="[^"]*" data-step="${key}">(.*?)</li>`, 's').exec(html)?.[1]
}

const isDone = (html: string, key: string) => new RegExp(`class="onboarding-step done" data-step="${key}"`).test(html)

describe('onboarding checklist', () => {
  it('ticks each step from the data, links to the page that takes it, and is gone when all are done', async () => {
    const p = await mountContentPages({ role: 'owner' })
    const home = await (await p.get('')).text()
    expect(home).toContain('Get started')
    expect(step(home, 'connect')).toContain(`href="${p.page('/accounts')}"`)
    expect(step(home, 'compose')).toContain(`href="${p.page('/compose')}"`)
    expect(step(home, 'integrate')).toContain(`href="${p.page('/settings/tokens')}"`)
    expect(isDone(home, 'connect')).toBe(false)
    expect(isDone(home, 'compose')).toBe(false)
    expect(isDone(home, 'schedule')).toBe(false)
    // The test workspace comes with an API token (the one these calls use).
    expect(isDone(home, 'integrate')).toBe(true)
    expect(home).toContain('1 of 4 steps done.')

    const acc = await account(p.t, 'MICROBLOG_NET')
    const draft = await p.t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', caption: 'A first draft', accountIds: [acc.id], mediaIds: [], action: 'draft' },
    })
    expect(draft.status).toBeLessThan(300)
    const after = await (await p.get('/calendar')).text()
    expect([isDone(after, 'connect'), isDone(after, 'compose'), isDone(after, 'schedule')]).toEqual([true, true, false])
    expect(after).toContain('3 of 4 steps done.')

    const at = new Date(Date.now() + 86_400_000).toISOString()
    const scheduled = await p.t.call('POST', '/v1/posts', {
      body: {
        type: 'IMAGE',
        caption: 'Scheduled',
        accountIds: [acc.id],
        mediaIds: [],
        action: 'schedule',
        scheduledAt: at,
      },
    })
    expect(scheduled.status).toBeLessThan(300)
    const done = await (await p.get('')).text()
    expect(done).not.toContain('Get started')
    expect(step(done, 'connect')).toBeUndefined()
  })

  it('tells a member whom to ask for the step only owners and admins can take', async () => {
    const p = await mountContentPages({ role: 'member' })
    const home = await (await p.get('')).text()
    const integrate = step(home, 'integrate')!
    expect(integrate).not.toContain('href=')
    expect(integrate).toContain('Ask an owner or admin')
  })

  it('is not shown to a reviewer, who writes no posts', async () => {
    const p = await mountContentPages({ role: 'reviewer' })
    const home = await (await p.get('')).text()
    expect(home).not.toContain('Get started')
    expect(step(home, 'compose')).toBeUndefined()
  })
})
