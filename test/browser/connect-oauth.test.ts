/**
 * Connecting an OAuth network's account in chromium, from the dashboard's accounts page to the
 * account listed there: the forum network (Reddit OAuth 2) through the hosted connect page and the
 * consent page of its loopback fake, where the owner presses Allow; then the same flow declined.
 */
import type { Browser, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { startForumFake, type ForumFake } from '../fakes/forum'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'

let browser: Browser
let t: ServedApp
let fake: ForumFake
const owner = { email: `owner-${randomBase62(6)}@example.com`, password: 'owner password' }

beforeAll(async () => {
  browser = await launchBrowser()
  fake = await startForumFake()
  t = await serveApp({
    networks: {
      origins: { FORUM_NET_API_URL: fake.url, FORUM_NET_OAUTH_URL: fake.url, FORUM_NET_AUTHORIZE_URL: fake.url },
      clients: {
        FORUM_NET: {
          clientId: 'forum-client',
          clientSecret: 'forum-secret',
          userAgent: 'web:com.example.publisher:v2.1.0 (by /u/publisher_dev)',
        },
      },
    },
  })
  const user = await createUser(t.deps, { email: owner.email, name: 'Olga Owner', password: owner.password })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, 'owner'))
})

async function signedIn(): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(owner.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
  return { page, problems, close: () => context.close() }
}

/** From the accounts page to the network's consent page, answered with `choice`; back on the accounts page. */
async function connectForum(page: Page, choice: 'Allow' | 'Decline') {
  await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}/accounts`)
  await page.getByLabel('Network').selectOption({ label: 'Forum' })
  await page.getByRole('button', { name: 'Connect an account' }).click()
  await page.getByRole('link', { name: /Continue to/ }).click()
  await page.waitForURL((url) => url.href.startsWith(fake.url))
  await expect.poll(() => page.locator('h1').textContent()).toContain('would like to connect')
  await page.getByRole('button', { name: choice }).click()
  await page.waitForURL(/\/app\/w\/[^/]+\/accounts/)
}

describe('connecting an OAuth account in chromium', () => {
  it('connects a forum account through its consent page and lists it on the accounts page', async () => {
    const { page, problems, close } = await signedIn()
    fake.oauth.signInAs({ id: 'k9x', username: 'river_cafe' })
    await connectForum(page, 'Allow')
    await expect.poll(() => page.getByText('Account connected.').count()).toBe(1)
    const card = page.locator('.account-cards li', { hasText: 'river_cafe' })
    await expect.poll(() => card.count()).toBe(1)
    expect(await card.textContent()).toContain('Forum')
    expect(fake.oauth.authorizeRequests[0]!.get('duration')).toBe('permanent')
    expect(fake.state.userAgents.at(-1)).toBe('web:com.example.publisher:v2.1.0 (by /u/publisher_dev)')
    expect(problems).toEqual([])
    await close()
  })

  it('says so and lists nothing new when the owner declines', async () => {
    const { page, close } = await signedIn()
    await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}/accounts`)
    const before = await page.locator('.account-cards li').count()
    expect(before).toBe(1)
    await connectForum(page, 'Decline')
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('The network says access was not granted, so no account was connected.')
    expect(await page.locator('.account-cards li').count()).toBe(before)
    await close()
  })
})
