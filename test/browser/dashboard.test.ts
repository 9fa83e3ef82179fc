/**
 * The dashboard in a real browser (chromium through playwright-core) against the app served on loopback:
 * sign-up, sign-in and sign-out; invitations up to the plan's seats; an API token created, used and
 * revoked; another workspace's URL; and the hosted connect of a SANDBOX account.
 */
import type { Browser, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser, signUp } from '../../src/services/people/users'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'

const CALLER = 'http://caller.test'
let browser: Browser
let t: ServedApp

beforeAll(async () => {
  browser = await launchBrowser()
  t = await serveApp({ plan: 'pro', redirectOrigins: [CALLER] }) // pro: 3 seats
})

const email = (what: string) => `${what}-${randomBase62(6)}@example.com`

async function newPage(): Promise<Page> {
  const context = await browser.newContext()
  return context.newPage()
}

async function signIn(page: Page, address: string, password: string) {
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(address)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** An owner of the test workspace, signed in in a fresh browser context. */
async function ownerPage(): Promise<Page> {
  const password = 'owner password'
  const owner = await createUser(t.deps, { email: email('owner'), name: 'Olga Owner', password })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, owner.id, 'owner'))
  const page = await newPage()
  await signIn(page, owner.email, password)
  await page.waitForURL(/\/app\/w\//)
  return page
}

describe('dashboard in chromium', () => {
  it('signs up (a common password refused beside its field first), signs out, refuses a wrong password, and signs in', async () => {
    const page = await newPage()
    const address = email('signup')
    await page.goto(`${t.baseUrl}/app/sign-up`)
    await page.getByLabel('Your name').fill('Sam Signup')
    await page.getByLabel('Email').fill(address)
    await page.getByLabel('Password (at least 8 characters)').fill('12345678')
    await page.getByLabel('Workspace name').fill('Sam Studio')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL(/\/app\/sign-up$/)
    const password = page.getByLabel('Password (at least 8 characters)')
    await expect(password.getAttribute('aria-invalid')).resolves.toBe('true')
    await expect(page.locator('#f-password-error').isVisible()).resolves.toBe(true)
    await expect(page.locator('#f-password-error').textContent()).resolves.toMatch(
      /^This password is among the most common ones/,
    )
    // The other fields kept what was typed; the password field is empty.
    await expect(page.getByLabel('Your name').inputValue()).resolves.toBe('Sam Signup')
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(address)
    await expect(page.getByLabel('Workspace name').inputValue()).resolves.toBe('Sam Studio')
    await expect(password.inputValue()).resolves.toBe('')
    await password.fill('brisk otter mural')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL(/\/app\/w\/ws_[0-9A-Za-z]+$/)
    await expect(page.locator('.workspace-name').first().textContent()).resolves.toBe('Sam Studio')

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(/\/app\/sign-in$/)
    await page.goto(`${t.baseUrl}/app`)
    expect(new URL(page.url()).pathname).toBe('/app/sign-in')

    await signIn(page, address, 'not the password')
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The email or the password is wrong.')
    await signIn(page, address, 'brisk otter mural')
    await page.waitForURL(/\/app\/w\/ws_/)
    // The workspace's home is its calendar, this week.
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/^Week of /)
  })

  it('invites members by link up to the plan seats, then shows the plan figure', async () => {
    const owner = await ownerPage() // seat 1 of 3
    for (const name of ['Ivy', 'Ian']) {
      await owner.goto(`${t.baseUrl}/app/w/${t.workspaceId}/settings/members`)
      await owner.getByRole('button', { name: 'Create invitation link' }).click()
      const link = (await owner.getByTestId('invitation-link').textContent())!.trim()
      const invitee = await newPage()
      await invitee.goto(link)
      await invitee.getByLabel('Your name').fill(name)
      await invitee.getByLabel('Email').fill(email(name))
      await invitee.getByLabel('Password (at least 8 characters)').fill('invitee password')
      await invitee.getByRole('button', { name: 'Create account and join' }).click()
      await invitee.waitForURL(new RegExp(`/app/w/${t.workspaceId}`))
      // The link was for one person: opened again, it says it was used.
      await invitee.goto(link)
      await expect(invitee.locator('main p').first().textContent()).resolves.toBe(
        'This invitation has already been used.',
      )
    }
    await owner.goto(`${t.baseUrl}/app/w/${t.workspaceId}/settings/members`)
    await expect(owner.locator('.member-row').count()).resolves.toBe(3)
    await owner.getByRole('button', { name: 'Create invitation link' }).click()
    await expect(owner.getByRole('alert').textContent()).resolves.toContain('Your plan allows 3 seats')
  })

  it('creates an API token shown once, uses it against /v1/me, and revokes it', async () => {
    const other = await serveApp({ plan: 'agency' })
    const password = 'token password'
    const admin = await createUser(other.deps, { email: email('admin'), name: 'Ada Admin', password })
    await other.deps.db.transaction((tx) => addMember(tx, other.workspaceId, admin.id, 'admin'))
    const page = await newPage()
    await page.goto(`${other.baseUrl}/app/sign-in`)
    await page.getByLabel('Email').fill(admin.email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/app\/w\//)
    await page.goto(`${other.baseUrl}/app/w/${other.workspaceId}/settings/tokens`)
    await page.getByLabel('Token name').fill('deploy bot')
    await page.getByRole('button', { name: 'Create token' }).click()
    const secret = (await page.getByTestId('new-token').textContent())!.trim()
    expect(secret).toMatch(/^sps_[0-9A-Za-z]{43}$/)
    const me = await fetch(`${other.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${secret}` } })
    expect(me.status).toBe(200)
    expect(((await me.json()) as { workspaceId: string }).workspaceId).toBe(other.workspaceId)

    await page.goto(`${other.baseUrl}/app/w/${other.workspaceId}/settings/tokens`)
    expect(await page.content()).not.toContain(secret)
    await page.getByRole('button', { name: 'Revoke deploy bot' }).click()
    await expect(page.getByRole('status').textContent()).resolves.toContain('Token revoked')
    const after = await fetch(`${other.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${secret}` } })
    expect(after.status).toBe(401)
  })

  it("answers 404 for another workspace's page", async () => {
    const stranger = await signUp(t.deps, { email: email('stranger'), name: 'S', password: 'quiet stranger canyon' })
    const own = { email: email('own'), password: 'my own copper kite' }
    await signUp(t.deps, { ...own, name: 'Own' })
    const owner = await newPage()
    await signIn(owner, own.email, own.password)
    await owner.waitForURL(/\/app\/w\//)
    const res = await owner.goto(`${t.baseUrl}/app/w/${stranger.workspaceId}/settings/members`)
    expect(res?.status()).toBe(404)
    expect(await owner.content()).not.toContain(stranger.user.email)
  })

  it('connects a SANDBOX account through the hosted connect page and its consent page', async () => {
    const created = await t.call('POST', '/v1/accounts/connect', {
      body: { platform: 'PHOTO_NET', connection: 'SANDBOX', redirectUrl: `${CALLER}/connected` },
    })
    expect(created.status).toBe(200)
    const { url } = (await created.json()) as { url: string }
    const page = await newPage()
    await page.route(`${CALLER}/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<p>back</p>' }),
    )
    await page.goto(url)
    await page.getByRole('link', { name: /Continue to/ }).click()
    await page.getByLabel('Account name').fill('browser_studio')
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.waitForURL(`${CALLER}/**`)
    const accountId = new URL(page.url()).searchParams.get('accountId')
    expect(accountId).toMatch(/^acc_/)
    const accounts = (await (await t.call('GET', '/v1/accounts')).json()) as Array<{ id: string; username: string }>
    expect(accounts.find((a) => a.id === accountId)).toMatchObject({ username: 'browser_studio' })
  })
})
