/**
 * The calendar in chromium: a post dragged to another hour of the week and to another day of the
 * month is rescheduled there (read back through the API), and the keyboard way (the post's Move
 * form) does the same without a mouse.
 */
import type { Browser, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'
import { account } from '../support/fixtures'

let browser: Browser
let t: ServedApp
const YEAR = new Date().getUTCFullYear() + 1
/** A Monday of next year (the week the tests draw). */
const MONDAY = (() => {
  const d = new Date(Date.UTC(YEAR, 2, 1))
  d.setUTCDate(1 + ((8 - d.getUTCDay()) % 7))
  return d.toISOString().slice(0, 10)
})()
const dayAfter = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)

beforeAll(async () => {
  browser = await launchBrowser()
  t = await serveApp({ timezone: 'Europe/Paris' })
})

async function memberPage(): Promise<Page> {
  const password = 'member password'
  const user = await createUser(t.deps, { email: `cal-${randomBase62(6)}@example.com`, name: 'Cal', password })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, 'member'))
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  const errors: string[] = []
  page.on('console', (m) => (m.type() === 'error' ? errors.push(m.text()) : undefined))
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
  ;(page as Page & { errors: string[] }).errors = errors
  return page
}

async function scheduled(at: string, caption: string): Promise<string> {
  const micro = await account(t, 'MICROBLOG_NET', `micro_${randomBase62(4)}`)
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [micro.id], mediaIds: [], action: 'schedule', caption, scheduledAt: at },
  })
  expect(res.status).toBe(200)
  return (await res.json()).id
}

const storedTime = async (id: string) => (await (await t.call('GET', `/v1/posts/${id}`)).json()).scheduledAt

const calendar = (query: string) => `${t.baseUrl}/app/w/${t.workspaceId}/calendar?${query}`

describe('calendar in chromium', () => {
  it('drags a post to another hour of the week, then to another day of the month', async () => {
    // 10:30 in Paris (winter time, UTC+1) on the Tuesday.
    const id = await scheduled(`${dayAfter(MONDAY, 1)}T09:30:00Z`, 'Drag me around')
    const page = await memberPage()
    await page.goto(calendar(`view=week&day=${MONDAY}`))
    const target = page.locator(`.cal-slot[data-day="${dayAfter(MONDAY, 3)}"][data-hour="15"]`)
    await page.locator(`#post-${id}`).dragTo(target)
    await page.waitForFunction((postId) => document.querySelector(`.cal-slot[data-hour="15"] #post-${postId}`), id)
    // Thursday 15:30 in Paris.
    expect(await storedTime(id)).toBe(`${dayAfter(MONDAY, 3)}T14:30:00.000Z`)

    await page.goto(calendar(`view=month&day=${MONDAY}`))
    await page.locator(`#post-${id}`).dragTo(page.locator(`#day-${dayAfter(MONDAY, 5)}`))
    await page.waitForFunction(
      ([postId, day]) => document.querySelector(`#day-${day} #post-${postId}`),
      [id, dayAfter(MONDAY, 5)],
    )
    // Same time of day, the Saturday.
    expect(await storedTime(id)).toBe(`${dayAfter(MONDAY, 5)}T14:30:00.000Z`)
    expect((page as Page & { errors: string[] }).errors).toEqual([])
  })

  it('moves a post with the keyboard: its Move form, in the workspace zone', async () => {
    const id = await scheduled(`${dayAfter(MONDAY, 2)}T08:00:00Z`, 'Keyboard only')
    const page = await memberPage()
    await page.goto(calendar(`view=week&day=${MONDAY}`))
    await page.locator(`#post-${id} .cal-move summary`).focus()
    await page.keyboard.press('Enter')
    const input = page.locator(`#at-${id}`)
    await input.focus()
    await input.fill(`${dayAfter(MONDAY, 4)}T18:45`)
    await page.keyboard.press('Enter')
    await page.waitForURL(/calendar\?view=week/)
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Post rescheduled.')
    expect(await storedTime(id)).toBe(`${dayAfter(MONDAY, 4)}T17:45:00.000Z`)
    await expect(
      page.locator(`.cal-slot[data-day="${dayAfter(MONDAY, 4)}"][data-hour="18"] #post-${id}`).count(),
    ).resolves.toBe(1)
  })
})
