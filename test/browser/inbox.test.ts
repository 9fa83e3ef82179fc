/**
 * The inbox in chromium: the list and reading pane (1280 px) or one column (390 px), light and dark,
 * no sideways scroll, no console error, no serious axe-core violation; the unread badge, filters
 * applied on change, opening marks read, the reply counter counting as the network does (and holding
 * the submit past the budget), hide with the service's answer, another workspace's comment 404, and a
 * stranger's markup shown as text. With `SCREENSHOT_DIR` set, each view is saved there as a PNG.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { replyBudgetOf } from '../../src/domain/reply-text'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { otherWorkspaceAccount } from '../support/dashboard-pages'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'
import { account } from '../support/fixtures'
import { ALL_ALLOWED } from '../support/inbox-app'
import { publishedPost, seedComment } from '../support/inbox-comments'
import { inboxNetwork } from '../support/inbox-network'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const XSS = '<img src=x onerror=alert(1)>'
const MINUTE = 60_000

let browser: Browser
let t: ServedApp
const password = 'inbox lantern moss harbour'
let email = ''
let ids: { xss: string; question: string; hideable: string; foreign: string; postId: string }

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE })
  const violations = (await page.evaluate(async () => (await (window as any).axe.run('main')).violations)) as Array<{
    id: string
    impact: string | null
    nodes: Array<{ target: string[] }>
  }>
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

beforeAll(async () => {
  browser = await launchBrowser()
  const network = inboxNetwork()
  t = await serveApp({ plan: 'agency', networkRegistry: network.registry })
  email = `inbox-${randomBase62(6)}@example.com`
  const owner = await createUser(t.deps, { email, name: 'Ines Inbox', password })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, owner.id, 'owner'))
  const micro = await account(t, 'MICROBLOG_NET', 'northwind')
  const pro = await account(t, 'PROFESSIONAL_NET', 'northwind-roasters')
  const { postId, target: on } = await publishedPost(
    t,
    micro,
    'Our winter blend is back: dark chocolate, orange peel and a long finish.',
  )
  const at = (m: number) => new Date(t.deps.clock.now().getTime() - m * MINUTE)
  const question = await seedComment(t, {
    account: micro,
    target: on,
    text: 'Is the winter blend available as whole beans? We would love a kilo for the office.',
    authorName: 'Priya Raman',
    authorHandle: 'priya.r',
    createdAt: at(40),
    network,
  })
  await seedComment(t, {
    account: micro,
    target: on,
    parentId: question,
    fromAccount: true,
    authorName: 'northwind',
    text: 'Yes! Whole beans in 250 g and 1 kg bags.',
    createdAt: at(35),
    state: 'read',
  })
  const xss = await seedComment(t, { account: micro, target: on, text: XSS, authorName: 'Mallory', createdAt: at(20) })
  await seedComment(t, {
    account: pro,
    text: 'Great team, congratulations on the new roastery.',
    createdAt: at(90),
    state: 'replied',
  })
  await seedComment(t, {
    account: micro,
    kind: 'mention',
    text: '@northwind best flat white in town',
    createdAt: at(5),
  })
  await seedComment(t, { account: pro, text: 'Spam spam spam', createdAt: at(200), state: 'hidden' })
  const open = await account(t, ALL_ALLOWED, 'northwind-everywhere')
  const hideable = await seedComment(t, {
    account: open,
    text: 'Buy followers cheap!!!',
    createdAt: at(300),
    state: 'read',
    network,
  })
  const { other, theirs } = await otherWorkspaceAccount(t)
  const foreign = await seedComment(t, { account: theirs, workspaceId: other.id, text: 'other workspace' })
  ids = { xss, question, hideable, foreign, postId }
})

afterAll(async () => {
  await browser?.close()
})

async function signedIn(width: number, colorScheme: 'light' | 'dark') {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme, bypassCSP: true })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`)
    void d.dismiss()
  })
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
  return { page, errors }
}

const inbox = (path = '') => `${t.baseUrl}/app/w/${t.workspaceId}/inbox${path}`

async function checkView(page: Page, errors: string[], name: string) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }))
  if (process.env.SCREENSHOT_DIR)
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}.png`, fullPage: true })
  expect({ name, fits: widths.scroll <= widths.inner }).toEqual({ name, fits: true })
  expect(errors).toEqual([])
  expect({ name, violations: await seriousViolations(page) }).toEqual({ name, violations: [] })
}

describe('inbox in chromium', () => {
  it('lists, filters, opens (marks read, the badge goes down) and shows a stranger’s markup as text', async () => {
    const { page, errors } = await signedIn(1280, 'light')
    await page.goto(inbox())
    const badge = page.locator('.sidebar .nav-count')
    await expect(badge.getAttribute('data-unread')).resolves.toBe('3')
    // Six: the account's own reply is in its thread, not in the list.
    await expect(page.locator('.inbox-item').count()).resolves.toBe(6)
    await expect(page.locator('.inbox-item-text').first().textContent()).resolves.toContain('best flat white')
    await expect(page.locator('.inbox-item-text', { hasText: XSS }).count()).resolves.toBe(1)
    await expect(page.locator('main img').count()).resolves.toBe(0)

    await page.getByLabel('State').selectOption('hidden')
    await page.waitForURL(/state=hidden/)
    await expect(page.locator('.inbox-item').count()).resolves.toBe(1)
    await expect(page.locator('.inbox-item-text').textContent()).resolves.toBe('Spam spam spam')
    await page.getByLabel('State').selectOption('')
    await page.waitForURL((u) => !u.search.includes('state=hidden'))

    await page.locator('.inbox-item a', { hasText: 'whole beans' }).click()
    await page.waitForURL(new RegExp(`/inbox/${ids.question}`))
    await expect(page.locator('.inbox-reader-text').textContent()).resolves.toContain('a kilo for the office')
    await expect(page.locator('.inbox-thread .inbox-message').count()).resolves.toBe(2)
    await expect(badge.getAttribute('data-unread')).resolves.toBe('2')
    await expect(page.locator('.inbox-on a').getAttribute('href')).resolves.toContain(`/posts/${ids.postId}`)
    await checkView(page, errors, 'inbox-desktop-light')

    await page.goto(inbox(`/${ids.xss}`))
    await expect(page.locator('.inbox-reader-text').textContent()).resolves.toBe(XSS)
    await expect(page.locator('main img').count()).resolves.toBe(0)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('the reply box counts as the network does and holds the submit past the budget; hide answers in words', async () => {
    const { page, errors } = await signedIn(390, 'dark')
    await page.goto(inbox(`/${ids.question}`))
    const box = page.getByLabel('Reply on', { exact: false })
    const counter = page.locator('.inbox-reply [data-counter]')
    const max = replyBudgetOf('MICROBLOG_NET')
    await box.fill('Thanks! 🎉 https://example.com/a/very/long/path/to/the/shop/page')
    // Weighted counting: the emoji weighs 2 and the link 23 whatever its length.
    await expect(counter.textContent()).resolves.toBe(`${'Thanks! '.length + 2 + 1 + 23} / ${max}`)
    await box.fill('x'.repeat(max + 1))
    await expect(counter.getAttribute('class')).resolves.toContain('over')
    await expect(page.getByRole('button', { name: 'Send reply' }).isDisabled()).resolves.toBe(true)
    await box.fill('')
    await checkView(page, errors, 'inbox-phone-dark')

    await page.goto(inbox(`/${ids.hideable}`))
    await page.getByRole('button', { name: 'Hide' }).click()
    await page.waitForURL(new RegExp(`/inbox/${ids.hideable}`))
    await expect(page.locator('main .notice').textContent()).resolves.toBe('Comment hidden.')
    await expect(page.locator('.inbox-reader .inbox-state').textContent()).resolves.toBe('Hidden')
    await page.getByRole('button', { name: 'Unhide' }).click()
    await page.waitForURL(new RegExp(`/inbox/${ids.hideable}`))
    await expect(page.locator('main .notice').textContent()).resolves.toBe('Comment shown again.')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('another workspace’s comment is the 404 page', async () => {
    const { page } = await signedIn(1280, 'light')
    const res = await page.goto(inbox(`/${ids.foreign}`))
    expect(res?.status()).toBe(404)
    await expect(page.locator('main').textContent()).resolves.not.toContain('other workspace')
    await page.context().close()
  })

  it('the phone list and the post page’s comments fit, light and dark', async () => {
    for (const [width, scheme] of [
      [390, 'light'],
      [1280, 'dark'],
    ] as const) {
      const { page, errors } = await signedIn(width, scheme)
      await page.goto(inbox())
      await checkView(page, errors, `inbox-list-${width}-${scheme}`)
      await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}/posts/${ids.postId}`)
      await expect(page.locator('#post-comments-title').count()).resolves.toBe(1)
      await checkView(page, errors, `post-comments-${width}-${scheme}`)
      await page.context().close()
    }
  })
})
