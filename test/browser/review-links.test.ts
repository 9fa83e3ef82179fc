/**
 * A client review link in chromium: the owner creates it in the settings and copies its address; a
 * visitor without an account opens it, gives a name, approves one post and asks changes on another;
 * once the link has expired its page says so and shows nothing else.
 */
import type { Browser, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'
import { groupWithAccounts, postInReview } from '../support/review-links'

let browser: Browser
let t: ServedApp
/** The app's clock: real time plus what the test moves it by. */
let offsetMs = 0

beforeAll(async () => {
  browser = await launchBrowser()
  t = await serveApp({ clock: { now: () => new Date(Date.now() + offsetMs) } })
})

async function ownerPage(): Promise<Page> {
  const password = 'owner password'
  const owner = await createUser(t.deps, {
    email: `owner-${randomBase62(6)}@example.com`,
    name: 'Olga Owner',
    password,
  })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, owner.id, 'owner'))
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] })
  const page = await context.newPage()
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
  return page
}

describe('client review link in chromium', () => {
  it('owner creates it, a visitor names themself, approves one post and asks changes on another; expired, it says so', async () => {
    const group = await groupWithAccounts(t, 'Acme', ['acme_news'])
    const other = await groupWithAccounts(t, 'Globex', ['globex_news'])
    const first = await postInReview(t, [group.accounts[0]!.id], 'Acme spring launch')
    const second = await postInReview(t, [group.accounts[0]!.id], 'Acme summer sale')
    await postInReview(t, [other.accounts[0]!.id], 'Globex secret plan')

    const owner = await ownerPage()
    await owner.goto(`${t.baseUrl}/app/w/${t.workspaceId}/settings`)
    await owner.getByRole('link', { name: 'Review links' }).click()
    await owner.waitForURL(/\/settings\/review-links$/)
    await owner.getByLabel('Account group').selectOption({ label: 'Acme' })
    await owner.getByLabel('Link name (who it is for)').fill('Acme marketing')
    await owner.getByLabel(/Valid for/).fill('3')
    await owner.getByRole('button', { name: 'Create review link' }).click()
    const field = owner.getByTestId('new-review-link')
    const url = await field.inputValue()
    expect(url).toMatch(new RegExp(`^${t.baseUrl}/review/rvl_`))
    await owner.getByRole('button', { name: 'Copy' }).click()
    await expect(owner.evaluate(() => navigator.clipboard.readText())).resolves.toBe(url)
    const settings = `${t.baseUrl}/app/w/${t.workspaceId}/settings/review-links`
    await owner.goto(settings)
    await expect(owner.getByTestId('new-review-link').count()).resolves.toBe(0)
    await expect(owner.getByRole('cell', { name: 'Acme marketing', exact: true }).isVisible()).resolves.toBe(true)

    const visitor = await (await browser.newContext()).newPage()
    await visitor.goto(url)
    await visitor.getByLabel('Your name').fill('Dana Client')
    await visitor.getByRole('button', { name: 'Show the posts' }).click()
    await visitor.getByText('Reviewing as').waitFor()
    const body = await visitor.textContent('main')
    expect(body).toContain('Acme spring launch')
    expect(body).toContain('Acme summer sale')
    expect(body).not.toContain('Globex')
    await expect(visitor.locator('.preview-card').count()).resolves.toBe(2)

    await visitor.getByRole('button', { name: `Approve the post ${first.id}` }).click()
    await visitor.getByText('Approved. The team sees your approval now.').waitFor()
    await visitor.locator(`#post-${second.id}`).getByLabel('What should change?').fill('Use the new logo')
    await visitor.locator(`#post-${second.id}`).getByRole('button', { name: 'Request changes' }).click()
    await visitor.getByText('Sent. The team sees what you asked to change.').waitFor()

    const a = await (await t.call('GET', `/v1/posts/${first.id}`)).json()
    expect(a).toMatchObject({ status: 'APPROVED', approval: { decidedBy: { name: 'Dana Client (review link)' } } })
    const b = await (await t.call('GET', `/v1/posts/${second.id}`)).json()
    expect(b).toMatchObject({ status: 'CHANGES_REQUESTED', approval: { comment: 'Use the new logo' } })

    await owner.goto(settings)
    const row = owner.getByRole('row', { name: /Acme marketing/ })
    await expect(row.textContent()).resolves.not.toContain('never')

    offsetMs = 4 * 86_400_000
    const answer = await visitor.goto(url)
    expect(answer?.status()).toBe(410)
    await visitor.getByRole('heading', { name: 'Review link expired' }).waitFor()
    expect(await visitor.textContent('body')).not.toContain('Acme')
    offsetMs = 0
  })
})
