/**
 * Writing a post in the dashboard in a real browser: three sandbox accounts, an image uploaded
 * straight to storage from the composer (its CSP lets the upload reach the store), a caption with an
 * override for one network, scheduled for tomorrow, found on the calendar, published now, and the
 * permalinks on the post's page. (The README's screenshots come from every-page.test.ts.)
 */
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'
import { runDue } from '../support/engine'
import { addSandboxAccount } from '../../src/services/accounts/accounts'
import { account } from '../support/fixtures'
import { jpeg, paint } from '../support/media'

let t: ServedApp
let page: Page

beforeAll(async () => {
  const browser = await launchBrowser()
  t = await serveApp({ plan: 'pro' })
  const password = 'owner password'
  const owner = await createUser(t.deps, {
    email: `owner-${randomBase62(6)}@example.com`,
    name: 'Olga Owner',
    password,
  })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, owner.id, 'owner'))
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
})

describe('composing in chromium', () => {
  it('uploads an image, writes to three accounts with an override, schedules, publishes now, shows permalinks', async () => {
    const micro = await account(t, 'MICROBLOG_NET', 'launchdesk')
    const pro = await account(t, 'PROFESSIONAL_NET', 'launch-team')
    const threads = await account(t, 'TEXTTHREAD_NET', 'launch.threads')
    const workspace = `${t.baseUrl}/app/w/${t.workspaceId}`
    const problems: string[] = []
    page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined))

    await page.goto(`${workspace}/compose`)
    for (const a of [micro, pro, threads]) await page.locator(`#account-${a.id}`).check()
    await page.getByLabel('Caption', { exact: true }).fill('Our winter launch is here: three new colours.')
    await page.getByText('Caption per network (overrides)').click()
    await page.getByRole('tab', { name: /Microblog/ }).click()
    await page.locator('#override-MICROBLOG_NET').fill('Winter launch: three new colours #launch')
    await page.getByLabel('Alt text for the upload').fill('Three jumpers in the new colours')
    const photo = await jpeg(paint(640, 480, (x, y) => [x % 256, y % 256, 160]))
    await page.setInputFiles('#upload-file', { name: 'launch.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photo) })
    await expect
      .poll(() => page.locator('#upload-status').textContent(), { timeout: 20_000 })
      .toBe('Uploaded launch.jpg.')
    expect(await page.locator('#media-picker input[type=checkbox]:checked').count()).toBe(1)

    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10)
    await page.locator('#scheduledAt').fill(`${tomorrow}T10:30`)
    await page.getByRole('button', { name: 'Schedule' }).click()
    await page.waitForURL(/\/posts\/post_/)
    const postUrl = page.url()
    expect(await page.locator('main').textContent()).toContain('Scheduled for')

    // On the calendar, on tomorrow's day, with a link to the post.
    await page.goto(`${workspace}/calendar?view=month&day=${tomorrow}`)
    const link = page.locator(`a[href$="${new URL(postUrl).pathname}"]`).first()
    await expect.poll(() => link.count()).toBeGreaterThan(0)

    await page.goto(postUrl)
    const published = page.waitForResponse((r) => r.url().endsWith('/publish') && r.request().method() === 'POST')
    await page.getByRole('button', { name: 'Publish now' }).click()
    expect((await published).status()).toBe(303)
    await page.waitForLoadState()
    await runDue(t, t.publishQueue)
    await page.reload()
    const permalinks = page.locator('main .post-permalink a[href^="http"]')
    await expect.poll(() => permalinks.count()).toBe(3)
    expect(await page.locator('main .post-summary').textContent()).toBe('Published on all 3 accounts.')

    const stored = await (await t.call('GET', `/v1/posts/${new URL(postUrl).pathname.split('/').pop()}`)).json()
    expect(stored.mediaIds).toHaveLength(1)
    expect(stored.captionOverrides).toEqual({ MICROBLOG_NET: 'Winter launch: three new colours #launch' })
    expect(stored.targets.map((x: { status: string }) => x.status)).toEqual(['PUBLISHED', 'PUBLISHED', 'PUBLISHED'])
    expect(problems).toEqual([])
  })

  it('shows a failing target with its error, retries it from the post page, and ends with every permalink', async () => {
    const steady = await account(t, 'MICROBLOG_NET', 'steady')
    const flaky = await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'CHAT_NET',
      username: 'flaky-chat',
      failMode: 'once',
    })
    const workspace = `${t.baseUrl}/app/w/${t.workspaceId}`
    await page.goto(`${workspace}/compose`)
    for (const a of [steady, flaky]) await page.locator(`#account-${a.id}`).check()
    await page.getByLabel('Caption', { exact: true }).fill('Doors open at nine.')
    await page.getByRole('button', { name: 'Publish now' }).click()
    await page.waitForURL(/\/posts\/post_/)
    const postUrl = page.url()
    await runDue(t, t.publishQueue)
    await page.reload()

    const row = (a: { username: string }) => page.locator('main li.post-target', { hasText: a.username })
    await expect(row(steady).textContent()).resolves.toContain('Published')
    const failedRow = (await row(flaky).textContent()) ?? ''
    expect(failedRow).toContain('Failed')
    expect(failedRow).toContain('rejected the first attempt')
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Failed')

    const retried = page.waitForResponse((r) => r.url().endsWith('/retry') && r.request().method() === 'POST')
    await page.getByRole('button', { name: 'Retry flaky-chat' }).click()
    expect((await retried).status()).toBe(303)
    await page.waitForLoadState()
    await runDue(t, t.publishQueue)
    await page.goto(postUrl)
    await expect(row(flaky).textContent()).resolves.toContain('Published')
    await expect.poll(() => page.locator('main .post-permalink a[href^="http"]').count()).toBe(2)
    await expect(page.getByRole('button', { name: /^Retry/ }).count()).resolves.toBe(0)
    const stored = await (await t.call('GET', `/v1/posts/${new URL(postUrl).pathname.split('/').pop()}`)).json()
    expect(stored.status).toBe('PUBLISHED')
    expect(stored.targets.find((x: { accountId: string }) => x.accountId === flaky.id).attempts).toBe(2)
  })
})
