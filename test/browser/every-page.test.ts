/**
 * Every dashboard page (test/support/every-page.ts lists them) in chromium at 1280 px and 390 px, in
 * the light and the dark theme, over a workspace that looks used: each page is the answer it claims,
 * does not scroll sideways, has no serious or critical axe-core violation, logs no error and has no
 * request fail. On a phone, no page has a control under 44 px. With
 * SCREENSHOTS_DIR set it saves the main pages (`<page>-light.png`, `-dark.png`, `-phone.png`), the
 * ones the README links (SCREENSHOTS_ALL=1: every page).
 */
import { mkdir } from 'node:fs/promises'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { withBrokenReads } from '../support/broken-reads'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'
import { DASHBOARD_PAGES, type Seeded, seedWorkspace, type Visitor } from '../support/every-page'
import { type Audit, auditPage } from '../support/page-audit'
import { randomIp } from '../support/test-app'

interface Variant {
  name: string
  viewport: { width: number; height: number }
  colorScheme: 'light' | 'dark'
  /** The screenshot's suffix, for the variants the README shows. */
  shot?: string
}

const VARIANTS: Variant[] = [
  { name: 'desktop light', viewport: { width: 1280, height: 900 }, colorScheme: 'light', shot: 'light' },
  { name: 'desktop dark', viewport: { width: 1280, height: 900 }, colorScheme: 'dark', shot: 'dark' },
  { name: 'phone light', viewport: { width: 390, height: 844 }, colorScheme: 'light', shot: 'phone' },
  { name: 'phone dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' },
]

const isPhone = (v: Variant) => v.viewport.width < 500

/** EVERY_PAGE_ONLY=accounts,media narrows a run to those pages (while working on them); unset, all of them. */
const only = process.env.EVERY_PAGE_ONLY?.split(',')
const PAGES = only ? DASHBOARD_PAGES.filter((p) => only.includes(p.name)) : DASHBOARD_PAGES

let browser: Browser
let t: ServedApp
let broken: ServedApp
let seeded: Seeded
/** The owner's cookies, signed in once through the real form. */
let ownerState: Awaited<ReturnType<BrowserContext['storageState']>>
const measured: Array<{
  variant: string
  page: string
  width: number
  axe: number
  small: number
  smallTargets: string[]
}> = []

beforeAll(async () => {
  browser = await launchBrowser()
  t = await serveApp({ plan: 'agency' })
  broken = await serveApp({
    parts: (parts) => withBrokenReads(parts, 'select "user_id" from "sessions" where token_hash=1'),
  })
  seeded = await seedWorkspace(t, t.baseUrl)
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(seeded.owner.email)
  await page.getByLabel('Password').fill(seeded.owner.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
  ownerState = await context.storageState()
  await context.close()
})

/** One browser context per kind of visitor, in the variant's size and theme. */
async function contextsFor(variant: Variant): Promise<Record<Visitor, Page>> {
  const options = { viewport: variant.viewport, colorScheme: variant.colorScheme, hasTouch: isPhone(variant) }
  const visitor = await browser.newContext(options)
  const owner = await browser.newContext({ ...options, storageState: ownerState })
  const failing = await browser.newContext(options)
  // A session cookie of the right shape: looking it up is the broken app's first read.
  await failing.addCookies([{ name: 'sps_session', value: 'a'.repeat(43), url: broken.baseUrl }])
  return { visitor: await visitor.newPage(), owner: await owner.newPage(), broken: await failing.newPage() }
}

async function screenshot(page: Page, name: string) {
  const dir = process.env.SCREENSHOTS_DIR
  if (!dir) return
  await mkdir(dir, { recursive: true })
  // The window made as tall as the page, so what sticks to the window (the sidebar, the composer's actions and
  // previews) is drawn as a member sees it rather than repeated mid-page by a stitched full-page picture.
  const size = page.viewportSize()
  if (!size) throw new Error('the page has no viewport')
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  await page.setViewportSize({ width: size.width, height })
  await page.screenshot({ path: `${dir}/${name}.png`, animations: 'disabled' })
  await page.setViewportSize(size)
}

describe('every dashboard page, at 1280 and 390 px, light and dark', () => {
  for (const variant of VARIANTS) {
    it(`passes on every page: ${variant.name}`, async () => {
      const pages = await contextsFor(variant)
      const found: Record<string, string[]> = {}
      const workspace = `/app/w/${t.workspaceId}`
      for (const entry of PAGES) {
        const origin = entry.visitor === 'broken' ? broken.baseUrl : t.baseUrl
        const page = pages[entry.visitor]
        // A client address per visit: the app allows 120 requests a minute per address, its test clock stands still.
        await page.setExtraHTTPHeaders({ 'x-forwarded-for': randomIp() })
        const audit: Audit = await auditPage(page, `${origin}${entry.path(seeded, workspace)}`, {
          status: entry.status ?? 200,
          touch: isPhone(variant),
        })
        const problems = [...audit.problems]
        if (audit.smallTargets.length) problems.push(`under 44 px: ${audit.smallTargets.join('; ')}`)
        found[entry.name] = problems
        measured.push({
          variant: variant.name,
          page: entry.name,
          width: audit.scrollWidth,
          axe: audit.axe.length,
          small: audit.smallTargets.length,
          smallTargets: audit.smallTargets,
        })
        if ((entry.shot || process.env.SCREENSHOTS_ALL) && variant.shot)
          await screenshot(page, `${entry.name}-${variant.shot}`)
      }
      await Promise.all(Object.values(pages).map((p) => p.context().close()))
      const failures = Object.entries(found).flatMap(([name, problems]) => problems.map((p) => `${name}: ${p}`))
      if (process.env.EVERY_PAGE_REPORT) {
        console.table(measured.filter((m) => m.variant === variant.name).map(({ smallTargets, ...row }) => row))
        console.log(failures.join('\n'))
        for (const m of measured.filter((x) => x.variant === variant.name && x.smallTargets.length))
          console.log(`${m.page} under 44 px: ${m.smallTargets.join('; ')}`)
      }
      expect(failures).toEqual([])
    })
  }
})
