/**
 * The composer and the calendar with the keyboard alone, in chromium: every step below is a key press
 * (Tab, Space, typing, Arrow keys, Enter), and each control reached shows a visible focus ring.
 */
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'
import { account } from '../support/fixtures'

let t: ServedApp
let page: Page

beforeAll(async () => {
  const browser = await launchBrowser()
  t = await serveApp({ plan: 'pro' })
  const password = 'keyboard password'
  const owner = await createUser(t.deps, { email: `keys-${randomBase62(6)}@example.com`, name: 'Kay', password })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, owner.id, 'owner'))
  page = await (await browser.newContext({ locale: 'en-US', timezoneId: 'UTC' })).newPage()
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(password)
  await page.keyboard.press('Enter')
  await page.waitForURL(/\/app\/w\//)
})

/** What has the focus: its id, name, text, and whether its outline is a visible ring. */
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    const style = el ? getComputedStyle(el) : null
    return {
      id: el?.id ?? '',
      name: el?.getAttribute('name') ?? '',
      value: (el as HTMLInputElement | null)?.value ?? '',
      text: el?.textContent?.trim() ?? '',
      ring: !!style && style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
    }
  })

/** Presses Tab until `wanted` holds of the focused element (at most 60 times); every stop has a ring. */
async function tabTo(wanted: (f: Awaited<ReturnType<typeof focused>>) => boolean, what: string) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab')
    const f = await focused()
    expect([what, f.id || f.name || f.text, f.ring]).toEqual([what, f.id || f.name || f.text, true])
    if (wanted(f)) return f
  }
  throw new Error(`Tab never reached ${what}`)
}

describe('keyboard only', () => {
  it('composes and saves a draft from the keyboard, with a visible focus on every control', async () => {
    const micro = await account(t, 'MICROBLOG_NET', 'keys-micro')
    await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}/compose`)
    await tabTo((f) => f.id === `account-${micro.id}`, 'the account')
    await page.keyboard.press('Space')
    await tabTo((f) => f.name === 'caption', 'the caption')
    await page.keyboard.type('Typed without a mouse.')
    await tabTo((f) => f.name === 'action' && f.value === 'draft', 'Save draft')
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/posts\/post_/)
    const post = await (await t.call('GET', `/v1/posts/${page.url().split('/').pop()}`)).json()
    expect(post).toMatchObject({ status: 'DRAFT', caption: 'Typed without a mouse.' })
    expect(post.targets.map((x: { accountId: string }) => x.accountId)).toEqual([micro.id])
  })

  it('reschedules a post on the calendar from the keyboard', async () => {
    const micro = await account(t, 'MICROBLOG_NET', 'keys-cal')
    const created = await t.call('POST', '/v1/posts', {
      body: {
        type: 'IMAGE',
        caption: 'Move me',
        accountIds: [micro.id],
        mediaIds: [],
        action: 'schedule',
        scheduledAt: '2027-01-15T10:30:00.000Z',
      },
    })
    const { id } = await created.json()
    await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}/calendar?view=week&day=2027-01-15`)
    await tabTo((f) => f.text.startsWith('Move') && !!f.ring, 'Move')
    // Several posts may be on the page: open this post's own form.
    while (!(await page.evaluate((p) => document.activeElement?.closest(`#post-${p}`) !== null, id)))
      await tabTo((f) => f.text.startsWith('Move'), 'the next Move')
    await page.keyboard.press('Enter')
    await tabTo((f) => f.name === 'scheduledAt', 'the new time')
    await page.keyboard.press('ArrowUp') // the month: January -> February
    await page.keyboard.press('Enter')
    await page.waitForLoadState()
    await expect
      .poll(async () => (await (await t.call('GET', `/v1/posts/${id}`)).json()).scheduledAt)
      .toBe('2027-02-15T10:30:00.000Z')
  })
})
