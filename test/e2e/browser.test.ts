/**
 * The started product in a real chromium, as a user meets it: an account connected through the
 * SANDBOX consent page from a link the API made, the demo user signed in to the dashboard with the
 * password `npm start` printed, a post composed with an image uploaded from the browser and published,
 * its crops made, and the API reference. Every page must load its scripts, styles and images without
 * a Content-Security-Policy violation, a console error or a failed request.
 */
import type { Browser, Page } from 'playwright-core'
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { launchBrowser } from '../support/chromium'
import { jpeg, paint } from '../support/media'
import { watchedContext, type WatchedContext } from './support/page-watch'
import { apiClient, clientAddress, loggedErrors } from './support/product'

const product = inject('product')
const address = clientAddress()
const api = apiClient(product.baseUrl, product.token!, address)
let browser: Browser
let watched: WatchedContext
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  watched = await watchedContext(browser, address)
  page = await watched.context.newPage()
})
// Each test answers for its own pages.
beforeEach(() => {
  watched.problems.length = 0
})

/** The demo workspace's SANDBOX account of `platform`. */
async function accountId(platform: string): Promise<string> {
  const accounts: Array<{ id: string; platform: string; username: string }> = (await api('GET', '/v1/accounts')).body
  return accounts.find((a) => a.platform === platform && a.username.startsWith('demo_'))!.id
}

describe('npm start, in chromium', () => {
  it('connects an account through the SANDBOX consent page from a link the API made', async () => {
    const link = await api('POST', '/v1/accounts/connect', { platform: 'PINBOARD_NET', connection: 'SANDBOX' })
    expect(link.status, JSON.stringify(link.body)).toBe(200)
    await page.goto(link.body.url)
    await page.getByRole('link', { name: /Continue to/ }).click()
    await page.getByLabel('Account name').fill('e2e_boards')
    await page.getByRole('button', { name: 'Allow' }).click()
    await expect.poll(() => page.locator('h1').textContent()).toContain('connected')
    expect(await page.locator('main, body').first().textContent()).toContain('e2e_boards')
    const accounts: Array<{ username: string; platform: string; status: string }> = (await api('GET', '/v1/accounts'))
      .body
    expect(accounts.find((a) => a.username === 'e2e_boards')).toMatchObject({
      platform: 'PINBOARD_NET',
      status: 'ACTIVE',
    })
    expect(watched.problems).toEqual([])
  })

  it('signs the demo user in with the printed password, composes with an upload, publishes, and makes the crops', async () => {
    await page.goto(`${product.baseUrl}/app/sign-in`)
    await page.getByLabel('Email').fill(product.email!)
    await page.getByLabel('Password').fill(product.password!)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/app\/w\/ws_[0-9A-Za-z]+/)
    const workspace = /^(.*\/app\/w\/ws_[0-9A-Za-z]+)/.exec(page.url())![1]!
    // The stylesheet arrived and applies (a blocked or missing one leaves no rules).
    expect(
      await page.evaluate(() => [...document.styleSheets].reduce((n, s) => n + s.cssRules.length, 0)),
    ).toBeGreaterThan(0)

    const photo = await accountId('PHOTO_NET')
    const micro = await accountId('MICROBLOG_NET')
    await page.goto(`${workspace}/compose`)
    for (const id of [photo, micro]) await page.locator(`#account-${id}`).check()
    await page.getByLabel('Caption', { exact: true }).fill('Fresh from the browser')
    await page.getByLabel('Alt text for the upload').fill('A field of colour')
    const bytes = await jpeg(paint(1080, 1350, (x, y) => [x % 256, 90, y % 256]))
    // The composer's script uploads straight to the store: its CSP has to let that connection through.
    await page.setInputFiles('#upload-file', { name: 'field.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(bytes) })
    // What went wrong in the page, if anything, is what a failure shows.
    await expect
      .poll(async () => watched.problems.join('\n') || page.locator('#upload-status').textContent(), {
        timeout: 30_000,
      })
      .toBe('Uploaded field.jpg.')
    await page.getByRole('button', { name: 'Publish now' }).click()
    await page.waitForURL(/\/posts\/post_/)
    const postId = new URL(page.url()).pathname.split('/').pop()!
    await expect
      .poll(
        async () => {
          await page.reload()
          return page.locator('main .post-permalink a[href^="http"]').count()
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(2)
    expect(await page.locator('main .post-summary').textContent()).toBe('Published on all 2 accounts.')
    const post = (await api('GET', `/v1/posts/${postId}`)).body
    expect(post).toMatchObject({ status: 'PUBLISHED', caption: 'Fresh from the browser' })
    expect(post.mediaIds).toHaveLength(1)

    // "Make the crops": the variants service behind the dashboard, and the crops shown from the store.
    await page.goto(`${workspace}/media/${post.mediaIds[0]}/canvases`)
    await page.getByRole('button', { name: 'Make the crops' }).click()
    await page.waitForLoadState()
    const crops = page.locator('.crops figure img')
    await expect.poll(() => crops.count()).toBe(4)
    await expect
      .poll(() => crops.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)))
      .toBe(true)
    expect(watched.problems).toEqual([])
  })

  it('serves the API reference page, its script and styles from itself', async () => {
    await page.goto(`${product.baseUrl}/docs`)
    await expect.poll(() => page.locator('.swagger-ui .info .title').count(), { timeout: 30_000 }).toBe(1)
    await expect.poll(() => page.locator('.opblock').count()).toBeGreaterThan(20)
    expect(watched.problems).toEqual([])
  })

  it('logged no error meanwhile', () => {
    expect(loggedErrors(product.logFile)).toEqual([])
  })
})
