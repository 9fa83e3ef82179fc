/**
 * The composer's live previews in chromium: three accounts, a caption over the microblog budget
 * (marked there, not on the professional network), the preview's time per keystroke (reported),
 * media reordered by dragging and from the keyboard, no error before input, and the draft autosave.
 * With COMPOSER_SHOTS set, it saves the composer at 1280 and 390 px, light and dark, there.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'
import { account, storedMedia } from '../support/fixtures'
import { jpeg, paint } from '../support/media'

let t: ServedApp
let browser: Browser
let owner: { email: string; password: string }
let accounts: { micro: { id: string }; pro: { id: string }; threads: { id: string } }
let media: string[]

async function signedIn(options: { width: number; height: number; dark?: boolean }): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width, height: options.height },
    colorScheme: options.dark ? 'dark' : 'light',
  })
  const page = await context.newPage()
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(owner.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
  return page
}

const composeUrl = () => `${t.baseUrl}/app/w/${t.workspaceId}/compose`
const LONG = `Our winter launch is here: three new colours, made from recycled wool, shipped in plastic-free boxes. ${'Every jumper is knitted to order in our Porto workshop, and every order plants a tree. '.repeat(4)}https://example.com/winter`

interface Fixture {
  t: ServedApp
  owner: typeof owner
  accounts: typeof accounts
  media: string[]
}
let spare: Fixture

beforeAll(async () => {
  browser = await launchBrowser()
  spare = await setUp()
  ;({ t, owner, accounts, media } = await setUp())
})

/** A served app (its own rate-limit bucket) with an owner, three accounts and three library images. */
async function setUp(): Promise<Fixture> {
  const t = await serveApp({ plan: 'pro' })
  const owner = { email: `owner-${randomBase62(6)}@example.com`, password: 'owner password' }
  const user = await createUser(t.deps, { ...owner, name: 'Olga Owner' })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, 'owner'))
  const accounts = {
    micro: await account(t, 'MICROBLOG_NET', 'launchdesk'),
    pro: await account(t, 'PROFESSIONAL_NET', 'launch-team'),
    threads: await account(t, 'TEXTTHREAD_NET', 'launch.threads'),
  }
  const media: string[] = []
  for (const [i, colour] of [
    [210, 90, 60],
    [40, 140, 90],
    [60, 90, 200],
  ].entries()) {
    const bytes = await jpeg(paint(640, 480, (x, y) => [(colour[0]! + x) % 256, (colour[1]! + y) % 256, colour[2]!]))
    media.push(
      await storedMedia(t, { bytes, mimeType: 'image/jpeg', width: 640, height: 480, altText: `Jumper ${i + 1}` }),
    )
  }
  return { t, owner, accounts, media }
}

async function pickThree(page: Page) {
  for (const a of [accounts.micro, accounts.pro, accounts.threads]) await page.locator(`#account-${a.id}`).check()
}

describe('composer previews in chromium', () => {
  it('shows the composer at 1280 and 390 px, light and dark, without sideways scroll', async () => {
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      for (const dark of [false, true]) {
        const page = await signedIn({ width, height, dark })
        await page.goto(composeUrl())
        await pickThree(page)
        await page.locator(`#media-${media[0]}`).check()
        await page.getByLabel('Caption', { exact: true }).fill(LONG)
        await expect.poll(() => page.locator('#previews .preview-card').count()).toBe(3)
        const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect(sideways).toBeLessThanOrEqual(0)
        if (process.env.COMPOSER_SHOTS) {
          await mkdir(process.env.COMPOSER_SHOTS, { recursive: true })
          const name = `${process.env.COMPOSER_SHOTS}/composer-${width}-${dark ? 'dark' : 'light'}`
          await page.screenshot({ path: `${name}.png`, fullPage: true })
          const total = await page.evaluate(() => document.documentElement.scrollHeight)
          for (let y = 0, i = 0; y < total; y += 1100, i++) {
            const clip = { x: 0, y, width, height: Math.min(1100, total - y) }
            await page.screenshot({ path: `${name}-${i}.png`, fullPage: true, clip })
          }
        }
        await page.context().close()
      }
    }
  })

  it('marks the overflow of a caption over the microblog budget in that preview only, as the member types', async () => {
    const page = await signedIn({ width: 1280, height: 900 })
    await page.goto(composeUrl())
    await pickThree(page)
    const caption = page.getByLabel('Caption', { exact: true })
    await caption.fill('x'.repeat(270))
    const micro = page.locator(`#previews [data-account="${accounts.micro.id}"]`)
    const pro = page.locator(`#previews [data-account="${accounts.pro.id}"]`)
    expect(await micro.locator('mark.overflow').count()).toBe(0)
    await caption.press('End')
    const typed = ' and the <b>tail</b> that goes over'
    await page.keyboard.type(typed)
    const mark = micro.locator('mark.overflow')
    await expect.poll(() => mark.count()).toBe(1)
    expect(await mark.getAttribute('aria-label')).toBe('will be cut')
    expect(await mark.textContent()).toBe(typed.slice(280 - 270))
    expect(await micro.locator('.preview-count').first().textContent()).toBe(`${270 + typed.length} / 280`)
    expect(await pro.locator('mark.overflow').count()).toBe(0)
    expect(await pro.locator('.preview-text').textContent()).toContain('<b>tail</b>')
    expect(await page.locator('#previews b').count()).toBe(0)
    expect(await page.locator('#count-MICROBLOG_NET').getAttribute('class')).toContain('over')
    await page.context().close()
  })

  it('updates the previews on each keystroke (time per update reported, budget 16 ms)', async () => {
    const page = await signedIn({ width: 1280, height: 900 })
    await page.goto(composeUrl())
    await pickThree(page)
    await page.locator(`#media-${media[0]}`).check()
    const caption = page.getByLabel('Caption', { exact: true })
    await caption.fill(`${LONG} Café 👋🏽 日本語`)
    await caption.press('End')
    await page.evaluate(() => performance.clearMeasures('composer-preview'))
    await page.keyboard.type('x'.repeat(25) + ' ñ👋'.repeat(8) + ' y'.repeat(5) + 'z', { delay: 5 })
    const times = await page.evaluate(() => performance.getEntriesByName('composer-preview').map((e) => e.duration))
    expect(times.length).toBeGreaterThanOrEqual(50)
    const sorted = [...times].sort((a, b) => a - b)
    const p95 = sorted[Math.ceil(sorted.length * 0.95) - 1]!
    const line = `composer preview per keystroke in chromium: ${times.length} updates, p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms (budget 16 ms)`
    console.log(line)
    if (process.env.COMPOSER_SHOTS) await writeFile(`${process.env.COMPOSER_SHOTS}/keystroke.txt`, `${line}\n`)
    const micro = page.locator(`#previews [data-account="${accounts.micro.id}"] .preview-count`).first()
    expect(await micro.textContent()).toMatch(/^\d+ \/ 280$/)
    await page.context().close()
  })

  it('greets the member without errors, and shows a field’s problems only once it was changed', async () => {
    const page = await signedIn({ width: 1280, height: 900 })
    const checks: string[] = []
    page.on('response', (r) => (r.url().endsWith('/compose/check') ? checks.push(r.url()) : undefined))
    await page.goto(composeUrl())
    await page.waitForTimeout(600)
    expect(await page.locator('[data-field-errors] li').count()).toBe(0)
    await page.getByLabel('Caption', { exact: true }).fill('Hello there')
    await expect.poll(() => checks.length).toBeGreaterThan(0)
    await page.waitForTimeout(300)
    // No account yet, but the account list was not touched: nothing said there.
    expect(await page.locator('#errors-accountIds li').count()).toBe(0)
    await page.locator(`#account-${accounts.micro.id}`).check()
    await page.getByLabel('Caption', { exact: true }).fill('y'.repeat(300))
    await expect.poll(() => page.locator('#errors-caption li.error').count()).toBeGreaterThan(0)
    expect(await page.locator('#errors-caption').textContent()).toContain('280')
    expect(await page.locator('#caption').getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('#errors-scheduledAt li').count()).toBe(0)
    await page.context().close()
  })

  it('shows override tabs for the ticked networks only, and moves between them with the arrow keys', async () => {
    const page = await signedIn({ width: 1280, height: 900 })
    await page.goto(composeUrl())
    await page.locator(`#account-${accounts.micro.id}`).check()
    await page.locator(`#account-${accounts.threads.id}`).check()
    await page.getByText('Caption per network (overrides)').click()
    const tabs = page.getByRole('tab')
    await expect.poll(() => tabs.count()).toBe(2)
    expect(await page.locator('#override-PROFESSIONAL_NET').isVisible()).toBe(false)
    await tabs.first().click()
    await page.locator('#override-MICROBLOG_NET').fill('Short for the microblog')
    await page.keyboard.press('Shift+Tab')
    await tabs.first().focus()
    await page.keyboard.press('ArrowRight')
    expect(await tabs.nth(1).getAttribute('aria-selected')).toBe('true')
    expect(await page.locator('#override-TEXTTHREAD_NET').isVisible()).toBe(true)
    expect(await page.locator('#override-MICROBLOG_NET').isVisible()).toBe(false)
    const micro = page.locator(`#previews [data-account="${accounts.micro.id}"] .preview-text`)
    expect(await micro.textContent()).toBe('Short for the microblog')
    await page.context().close()
  })

  it('reorders media by dragging and with the move buttons; the form posts that order', async () => {
    const page = await signedIn({ width: 1280, height: 900 })
    await page.goto(composeUrl())
    await page.locator(`#account-${accounts.micro.id}`).check()
    await page.getByLabel('Caption', { exact: true }).fill('Three jumpers')
    for (const id of media) await page.locator(`#media-${id}`).check()
    const order = () =>
      page
        .locator('#media-picker > .media-tile')
        .evaluateAll((tiles) => tiles.map((t) => (t as HTMLElement).dataset.mediaId))
    const firstShown = () =>
      page.locator(`#previews [data-account="${accounts.micro.id}"] .preview-media img`).getAttribute('src')
    const start = await order()
    const [a, b] = start as [string, string]
    // Drag the second tile onto the left half of the first.
    await page.dragAndDrop(`[data-media-id="${b}"]`, `[data-media-id="${a}"]`, { targetPosition: { x: 8, y: 60 } })
    await expect.poll(order).toEqual([b, a, ...start.slice(2)])
    expect(await page.locator(`[data-media-id="${b}"] .media-tile-order`).textContent()).toBe('1')
    expect(await firstShown()).toContain(b)
    // From the keyboard: the "later" button of the first tile moves it back.
    await page.locator(`[data-media-id="${b}"] [data-move="1"]`).focus()
    await page.keyboard.press('Enter')
    await expect.poll(order).toEqual(start)
    await page.keyboard.press('Enter')
    await expect.poll(order).toEqual([a, start[2], b])
    expect(await page.getByRole('status').filter({ hasText: 'moved to place 3' }).count()).toBe(1)
    await page.getByRole('button', { name: 'Save as draft' }).click()
    await page.waitForURL(/\/posts\/post_[^/]+$/)
    const id = new URL(page.url()).pathname.split('/').pop()
    const stored = await (await t.call('GET', `/v1/posts/${id}`)).json()
    expect(stored.mediaIds).toEqual([a, start[2], b])
    await page.context().close()
  })

  it('autosaves one server draft as the member writes, and the submit updates that draft', async () => {
    // An app of its own: the tests above spent much of this client address's request budget.
    ;({ t, owner, accounts, media } = spare)
    const page = await signedIn({ width: 1280, height: 900 })
    const before = (await (await t.call('GET', '/v1/posts')).json()).length
    await page.goto(composeUrl())
    await page.waitForTimeout(2000)
    expect((await (await t.call('GET', '/v1/posts')).json()).length).toBe(before)
    await page.locator(`#account-${accounts.pro.id}`).check()
    await page.getByLabel('Caption', { exact: true }).fill('Autosaved words')
    await expect.poll(() => page.locator('#autosave-status').textContent(), { timeout: 10_000 }).toMatch(/Draft saved/)
    expect(page.url()).toMatch(/\/posts\/post_[^/]+\/edit$/)
    const id = page.url().split('/').at(-2)
    await page.getByLabel('Caption', { exact: true }).fill('Autosaved words, edited')
    await expect
      .poll(async () => (await (await t.call('GET', `/v1/posts/${id}`)).json()).caption, { timeout: 30_000 })
      .toBe('Autosaved words, edited')
    await page.getByRole('button', { name: 'Save as draft' }).click()
    await page.waitForURL(new RegExp(`/posts/${id}$`))
    const posts = await (await t.call('GET', '/v1/posts')).json()
    expect(posts.length).toBe(before + 1)
    // Reloaded, the draft is in the composer.
    await page.goto(`${composeUrl().replace('/compose', '')}/posts/${id}/edit`)
    expect(await page.getByLabel('Caption', { exact: true }).inputValue()).toBe('Autosaved words, edited')
    await page.context().close()
  })
})
