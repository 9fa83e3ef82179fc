/**
 * The post page (media, thread, one failed target) and the analytics page (a month of figures) in
 * chromium at 1280 px and 390 px, light and dark: no horizontal page scroll, no console error, no
 * serious or critical axe-core violation (the context bypasses CSP only to inject axe's source).
 * With `SCREENSHOT_DIR` set, each view is saved there as a PNG to look at.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, Cookie, Page } from 'playwright-core'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { targets } from '../../src/db/schema'
import { randomBase62 } from '../../src/lib/ids'
import { addSandboxAccount } from '../../src/services/accounts/accounts'
import { addMember } from '../../src/services/people/memberships'
import { createPost } from '../../src/services/posts/create'
import { createUser } from '../../src/services/people/users'
import { writeAnalyticsMonth } from '../support/analytics-month'
import { writeHistory } from '../support/analytics-history'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'
import { runDue } from '../support/engine'
import { account, storedMedia } from '../support/fixtures'
import { jpeg, paint } from '../support/media'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's serious and critical violations in the page's main region (the shell is the design's test), one line each. */
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

let browser: Browser
let t: ServedApp
const password = 'post analytics lantern moss'
let email = ''

beforeAll(async () => {
  browser = await launchBrowser()
  t = await serveApp({ plan: 'agency' })
  email = `shots-${randomBase62(6)}@example.com`
  const owner = await createUser(t.deps, { email, name: 'Pat Page', password })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, owner.id, 'owner'))
})

const VIEWS = [
  { name: 'desktop-light', width: 1280, colorScheme: 'light' as const },
  { name: 'desktop-dark', width: 1280, colorScheme: 'dark' as const },
  { name: 'phone-light', width: 390, colorScheme: 'light' as const },
  { name: 'phone-dark', width: 390, colorScheme: 'dark' as const },
]

/**
 * The session cookies of each view, kept after its first sign-in: the sign-in limit per account
 * (10 in 15 minutes) is what a person meets, and this file visits pages in every view many times.
 */
const sessions = new Map<string, Cookie[]>()

async function signedIn(view: (typeof VIEWS)[number]): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: view.width, height: 900 },
    colorScheme: view.colorScheme,
    bypassCSP: true,
  })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  const session = sessions.get(view.name)
  if (session) {
    await context.addCookies(session)
    return { page, errors }
  }
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
  sessions.set(view.name, await context.cookies())
  return { page, errors }
}

/** Visits the page in every view: no sideways scroll, no console error; saved when SCREENSHOT_DIR is set. */
async function checkViews(path: string, name: string) {
  for (const view of VIEWS) {
    const { page, errors } = await signedIn(view)
    await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}${path}`)
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }))
    if (process.env.SCREENSHOT_DIR)
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}-${view.name}.png`, fullPage: true })
    expect({ view: view.name, ...widths, fits: widths.scroll <= widths.inner }).toMatchObject({ fits: true })
    expect(errors).toEqual([])
    expect({ view: view.name, violations: await seriousViolations(page) }).toEqual({ view: view.name, violations: [] })
    await page.context().close()
  }
}

describe('post page and analytics in chromium', () => {
  it('a post with media, a thread and one failed target fits every view', async () => {
    const micro = await account(t, 'MICROBLOG_NET', 'northwind')
    const failing = await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'PROFESSIONAL_NET',
      username: 'northwind-careers',
      failMode: 'always',
    })
    const photo = await jpeg(paint(320, 400, (x, y) => [x % 256, (y * 2) % 256, 140]))
    const image = await storedMedia(t, { bytes: photo, mimeType: 'image/jpeg', altText: 'Our new workshop at dawn' })
    const post = await createPost(t.deps, t.workspaceId, {
      type: 'IMAGE',
      accountIds: [micro.id, failing.id],
      mediaIds: [image],
      action: 'now',
      caption: 'We opened our new workshop today: 40 benches, a tool library and a very long corridor of light.',
      captionOverrides: {
        PROFESSIONAL_NET: 'We are hiring makers for our new workshop. https://example.com/careers/workshop-makers-2026',
      },
      threadParts: ['Doors open at 9:00 every weekday.', 'Bring a friend: the first session is free.'],
    } as never)
    await runDue(t, t.publishQueue)
    await checkViews(`/posts/${post.id}`, 'post')
  })

  it('analytics with a month of figures fits every view', async () => {
    await writeAnalyticsMonth(t, t.deps.clock.now())
    await checkViews('/analytics', 'analytics')
  })

  it("an imported post shows each figure (or 'not reported') and no edit or delete; the analytics filters and CSV link work", async () => {
    const micro = await account(t, 'MICROBLOG_NET', 'imported_from_network')
    const now = t.deps.clock.now()
    const [target] = await writeHistory(t, [
      {
        account: micro,
        source: 'external',
        publishedAt: new Date(now.getTime() - 5 * 3_600_000),
        caption: 'Written on the network <b>itself</b>',
        snapshots: [{ at: now, figures: { likes: 12, comments: 3, shares: 1, views: 400, saves: 2 } }],
      },
    ])
    const [row] = await t.deps.db.select({ postId: targets.postId }).from(targets).where(eq(targets.id, target!))
    const postId = row!.postId
    await checkViews(`/posts/${postId}`, 'post-imported')
    const { page } = await signedIn(VIEWS[2]!)
    await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}/posts/${postId}`)
    const figures = page.locator('.post-metrics')
    await expect.poll(() => figures.locator('[data-metric="likes"] dd').textContent()).toBe('12')
    const unreported = await figures.locator('.post-metric-unreported').count()
    expect(unreported).toBeGreaterThan(0)
    expect(await figures.locator('.post-metric-unreported dd').first().textContent()).toBe('not reported')
    expect(await page.getByRole('button', { name: 'Delete post' }).count()).toBe(0)
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0)
    expect(await page.getByText('read-only here').count()).toBe(1)

    await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}/analytics?platform=MICROBLOG_NET&days=7`)
    expect(await page.locator('select[name="platform"]').inputValue()).toBe('MICROBLOG_NET')
    const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')
    expect(href).toContain('platform=MICROBLOG_NET')
    const csv = await page.evaluate(async (url) => {
      const res = await fetch(url)
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
    }, href!)
    expect(csv).toMatchObject({ status: 200, type: 'text/csv; charset=utf-8' })
    expect(csv.text).toContain('Written on the network <b>itself</b>')
    expect(csv.text.split('\r\n')[0]).toContain('target_id,post_id')
    await page.context().close()
    await checkViews('/analytics?from=2020-01-01&to=2026-12-31', 'analytics-too-long')
  })
})
