/**
 * A new workspace in chromium: the first-run checklist on the home page, the error pages and the
 * icon with no console error, and the composer saying so when its live check cannot answer (the
 * check's answers replaced at the browser's network layer by a 500 and a 429). With SCREENSHOTS_DIR
 * set it saves the checklist and the 404 page at 1280 and 390 px, light and dark.
 */
import { mkdir } from 'node:fs/promises'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'
import { account } from '../support/fixtures'

let browser: Browser
let t: ServedApp
let owner: { email: string; password: string }

/** A signed-in page with the given viewport and colour scheme, collecting console errors. */
async function signedIn(options: { width: number; dark?: boolean }) {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: options.width, height: 900 },
    colorScheme: options.dark ? 'dark' : 'light',
  })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined))
  page.on('pageerror', (e) => problems.push(e.message))
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(owner.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
  return { page, problems, close: () => context.close() }
}

async function shot(page: Page, name: string) {
  const dir = process.env.SCREENSHOTS_DIR
  if (!dir) return
  await mkdir(dir, { recursive: true })
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true })
}

beforeAll(async () => {
  browser = await launchBrowser()
  t = await serveApp({ plan: 'pro' })
  owner = { email: `owner-${randomBase62(6)}@example.com`, password: 'owner password' }
  const user = await createUser(t.deps, { email: owner.email, name: 'Olga Owner', password: owner.password })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, 'owner'))
})

afterAll(async () => {
  await browser?.close()
})

describe('first run in chromium', () => {
  it('shows the checklist, the icon and the error pages without a console error or sideways scroll', async () => {
    for (const width of [1280, 390]) {
      for (const dark of [false, true]) {
        const { page, problems, close } = await signedIn({ width, dark })
        const home = `${t.baseUrl}/app/w/${t.workspaceId}`
        await page.goto(home)
        await expect.poll(() => page.locator('.onboarding').count()).toBe(1)
        expect(await page.locator('.onboarding-step.done').count()).toBe(1) // the test workspace's API token
        await page.getByRole('link', { name: 'Connect an account' }).click()
        await page.waitForURL(/\/accounts$/)
        await page.goto(home)
        await shot(page, `onboarding-${width}-${dark ? 'dark' : 'light'}`)
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

        const missing = await page.goto(`${t.baseUrl}/app/no-such-page`)
        expect(missing?.status()).toBe(404)
        expect(await page.locator('h1').textContent()).toBe('Page not found')
        await shot(page, `not-found-${width}-${dark ? 'dark' : 'light'}`)
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

        const icon = await page.goto(`${t.baseUrl}/favicon.ico`)
        expect([icon?.status(), icon?.headers()['content-type']]).toEqual([200, 'image/x-icon'])
        // The 404 is expected; nothing else may complain (a missing icon, a refused script).
        expect(problems.filter((p) => !/404/.test(p))).toEqual([])
        await close()
      }
    }
  })

  it("says when the composer's live check cannot answer, with the wait of a 429, and clears it once it can", async () => {
    await account(t, 'MICROBLOG_NET', 'firstrun')
    const { page, close } = await signedIn({ width: 1280 })
    let answer: 'pass' | 500 | 429 = 'pass'
    await page.route('**/compose/check', (route) => {
      if (answer === 'pass') return route.continue()
      return route.fulfill({
        status: answer,
        contentType: 'application/json',
        headers: answer === 429 ? { 'Retry-After': '12' } : {},
        body: JSON.stringify({ error: { code: answer === 429 ? 'rate_limited' : 'internal_error' } }),
      })
    })
    await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}/compose`)
    const notice = page.locator('[data-check-problem]')
    const caption = page.getByLabel('Caption', { exact: true })

    answer = 500
    await caption.fill('A caption while the check is down')
    await expect.poll(() => notice.textContent()).toContain('The live check failed')
    expect(await notice.isVisible()).toBe(true)

    answer = 429
    await caption.fill('A caption while the check is busy')
    await expect
      .poll(() => notice.textContent())
      .toBe('Too many checks at once: the counts will update again in 12 seconds.')

    answer = 'pass'
    await caption.fill('A caption once the check is back')
    await expect.poll(() => notice.isVisible()).toBe(false)
    await close()
  })
})
