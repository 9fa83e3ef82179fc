/**
 * Connecting a form network in chromium: from the dashboard's accounts page to the hosted connect
 * page of the developer blogging network, its API key typed into the form (a wrong key first:
 * the form again with the network's refusal, the key not echoed back), the network asked through
 * its fake, and back on the accounts page with the account listed.
 */
import type { Browser } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { startDevblogFake } from '../fakes/devblog'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'

let browser: Browser
let t: ServedApp
let fake: Awaited<ReturnType<typeof startDevblogFake>>
let owner: { email: string; password: string }

beforeAll(async () => {
  browser = await launchBrowser()
  fake = await startDevblogFake({ now: () => new Date() })
  t = await serveApp({ plan: 'pro', networks: { origins: { DEVBLOG_NET_API_URL: fake.url } } })
  owner = { email: `owner-${randomBase62(6)}@example.com`, password: 'owner password' }
  const user = await createUser(t.deps, { email: owner.email, name: 'Olga Owner', password: owner.password })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, 'owner'))
})

describe('hosted connect form in chromium', () => {
  it('connects a developer blog account with its API key and lists it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(e.message))
    await page.goto(`${t.baseUrl}/app/sign-in`)
    await page.getByLabel('Email').fill(owner.email)
    await page.getByLabel('Password').fill(owner.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/app\/w\//)

    await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}/accounts`)
    await page.getByLabel('Network').selectOption('DEVBLOG_NET')
    await page.getByRole('button', { name: 'Connect an account' }).click()
    await page.waitForURL(/\/connect\/[A-Za-z0-9]+$/)
    expect(await page.locator('h1').textContent()).toContain('DEVBLOG_NET')
    const key = page.getByLabel('API key')
    expect(await key.getAttribute('type')).toBe('password')

    await key.fill('not-the-key')
    await page.getByRole('button', { name: 'Connect' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('unauthorized')
    expect(await page.getByLabel('API key').inputValue()).toBe('')
    expect(await page.content()).not.toContain('not-the-key')

    await page.getByLabel('API key').fill(fake.apiKey)
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.waitForURL(/\/accounts\?/)
    expect(await page.getByRole('status').first().textContent()).toContain('Account connected.')
    const card = page.locator('.account-card', { hasText: 'ada_writes' })
    expect(await card.count()).toBe(1)
    expect(await card.locator('.account-network').textContent()).toContain('api_key')
    expect(fake.server.calls('GET', '/api/users/me').map((r) => r.headers['api-key'])).toEqual([
      'not-the-key',
      fake.apiKey,
    ])
    expect(problems).toEqual([])
    await context.close()
  })
})
