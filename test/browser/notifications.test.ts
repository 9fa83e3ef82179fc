/**
 * Notifications in chromium: the bell's unread count in the sidebar (1280 px) and on the phone menu
 * (390 px, dark), opening one marks it read and goes to its page, mark all read clears the count,
 * the channel choices saved under settings; no sideways scroll, no console error, no serious axe-core
 * violation on the notifications page.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { notify } from '../../src/services/notifications/notify'
import { createUser } from '../../src/services/people/users'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const password = 'bell lantern moss harbour'
let browser: Browser
let t: ServedApp
let email = ''
let userId = ''

async function tell(title: string) {
  await t.deps.db.transaction((tx) =>
    notify(tx, {
      workspaceId: t.workspaceId,
      kind: 'mentioned',
      recipients: { userIds: [userId] },
      title,
      body: 'Can we move this to Friday?',
      link: `/app/w/${t.workspaceId}/calendar`,
      subject: { type: 'post', id: null },
      now: new Date(),
    }),
  )
}

beforeAll(async () => {
  browser = await launchBrowser()
  t = await serveApp()
  email = `bell-${randomBase62(6)}@example.com`
  const user = await createUser(t.deps, { email, name: 'Bella Bell', password })
  userId = user.id
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, 'reviewer'))
})

async function signedIn(width: number, colorScheme: 'light' | 'dark') {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme, bypassCSP: true })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
  return { page, errors }
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE })
  const violations = (await page.evaluate(async () => (await (window as any).axe.run('main')).violations)) as Array<{
    id: string
    impact: string | null
  }>
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)
}

const notificationsPage = () => `${t.baseUrl}/app/w/${t.workspaceId}/notifications`

describe('notifications in chromium', () => {
  it('counts unread on the bell, opens one (read), marks all read', async () => {
    await tell('Olga mentioned you in a note')
    await tell('Adam mentioned you in a note')
    const { page, errors } = await signedIn(1280, 'light')
    await page.goto(notificationsPage())
    const bell = page.locator('.sidebar a[href$="/notifications"] .nav-count')
    await expect(bell.getAttribute('data-unread')).resolves.toBe('2')
    await expect(page.locator('.notification').count()).resolves.toBe(2)
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }))
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner)
    expect(await seriousViolations(page)).toEqual([])

    await page.locator('.notification', { hasText: 'Olga' }).getByRole('button', { name: 'Open' }).click()
    await page.waitForURL(/\/calendar/)
    await page.goto(notificationsPage())
    await expect(bell.getAttribute('data-unread')).resolves.toBe('1')
    await page.getByRole('button', { name: 'Mark all read' }).click()
    await page.waitForURL(/\/notifications$/)
    await expect(bell.count()).resolves.toBe(0)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('shows the count on the phone menu and saves the channel choices', async () => {
    await tell('Rita mentioned you in a note')
    const { page, errors } = await signedIn(390, 'dark')
    await page.goto(notificationsPage())
    await expect(page.locator('.menu summary .nav-count').getAttribute('data-unread')).resolves.toBe('1')
    await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}/settings/notifications`)
    await page.getByLabel('Someone mentions you in a note: by email').uncheck()
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Saved.').count()).resolves.toBe(1)
    await expect(page.getByLabel('Someone mentions you in a note: by email').isChecked()).resolves.toBe(false)
    await expect(page.getByLabel('Someone mentions you in a note: in the app').isChecked()).resolves.toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })
})
