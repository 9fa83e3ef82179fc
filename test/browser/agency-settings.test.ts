/**
 * The agency settings in chromium, at 1280 px (light) and 390 px (dark): the owner turns on approval,
 * makes a group of two accounts that requires approval, makes labels, invites a reviewer and limits
 * them to the group; the reviewer's session is refused every settings page (403 page). What the pages
 * did is read back through the API. With SCREENSHOTS_DIR set, each page is saved there.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { addMember, listMemberGroupIds, listMembers } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'
import { account } from '../support/fixtures'

let browser: Browser
let t: ServedApp

beforeAll(async () => {
  browser = await launchBrowser()
  t = await serveApp({ plan: 'agency' })
})

const VIEWPORTS: Array<{ name: string; options: BrowserContextOptions }> = [
  { name: 'wide', options: { viewport: { width: 1280, height: 900 }, colorScheme: 'light' } },
  {
    name: 'phone',
    options: { viewport: { width: 390, height: 844 }, colorScheme: 'dark', hasTouch: true, isMobile: true },
  },
]

const email = (what: string) => `${what}-${randomBase62(6)}@example.com`

async function api<T>(method: string, path: string): Promise<T> {
  const res = await t.call(method, path)
  expect(res.status, `${method} ${path}`).toBe(200)
  return (await res.json()) as T
}

async function shot(page: Page, name: string) {
  const dir = process.env.SCREENSHOTS_DIR
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true })
}

/** No sideways scroll: the page is as wide as the window. */
async function fitsWidth(page: Page) {
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ])
  expect(scroll).toBeLessThanOrEqual(client)
}

async function signIn(page: Page, address: string, password: string) {
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(address)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
}

describe.each(VIEWPORTS)('agency settings at $name', ({ name, options }) => {
  it('turns on approval, makes a group and labels, limits a reviewer to the group; the reviewer cannot open settings', async () => {
    const settings = `${t.baseUrl}/app/w/${t.workspaceId}/settings`
    const tag = randomBase62(4)
    const a1 = await account(t, 'MICROBLOG_NET', `acme.micro.${tag}`)
    const a2 = await account(t, 'PHOTO_NET', `acme.photos.${tag}`)
    await account(t, 'PROFESSIONAL_NET', `other.${tag}`)
    const password = `owner ${randomBase62(12)}`
    const owner = await createUser(t.deps, { email: email('owner'), name: 'Olga Owner', password })
    await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, owner.id, 'owner'))
    const context = await browser.newContext(options)
    const page = await context.newPage()
    await signIn(page, owner.email, password)

    // Approval: the switch, saved, read back through the API.
    await page.goto(settings)
    await shot(page, `settings-workspace-${name}`)
    await page.getByRole('checkbox', { name: /Require approval before posts go out/ }).check()
    await page.getByRole('button', { name: 'Save approvals' }).click()
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Approval is now required')
    await expect(page.getByRole('checkbox', { name: /Require approval/ }).isChecked()).resolves.toBe(true)
    expect((await api<{ approvalRequired: boolean }>('GET', '/v1/workspace')).approvalRequired).toBe(true)
    await fitsWidth(page)

    // A group of two accounts that requires approval.
    await page.goto(`${settings}/groups`)
    await page.getByRole('link', { name: 'New group' }).first().click()
    await page.getByLabel('Name').fill(`Acme ${tag}`)
    await page.getByLabel('Violet').check()
    await page.getByRole('checkbox', { name: /Posts to these accounts require approval/ }).check()
    await page.getByRole('checkbox', { name: new RegExp(`acme\\.micro\\.${tag}`) }).check()
    await page.getByRole('checkbox', { name: new RegExp(`acme\\.photos\\.${tag}`) }).check()
    await shot(page, `settings-group-new-${name}`)
    await page.getByRole('button', { name: 'Create group' }).click()
    await page.waitForURL(/\/settings\/groups$/)
    const card = page.locator('.group-card', { hasText: `Acme ${tag}` })
    await expect(card.locator('.group-accounts li').count()).resolves.toBe(2)
    await expect(card.textContent()).resolves.toContain('Requires approval')
    await fitsWidth(page)
    await shot(page, `settings-groups-${name}`)
    const groups = await api<Array<{ id: string; name: string; accountIds: string[]; approvalRequired: boolean }>>(
      'GET',
      '/v1/groups',
    )
    const group = groups.find((g) => g.name === `Acme ${tag}`)!
    expect(group.accountIds.sort()).toEqual([a1.id, a2.id].sort())
    expect(group.approvalRequired).toBe(true)

    // Labels.
    await page.goto(`${settings}/labels`)
    for (const [label, colour] of [
      [`Spring ${tag}`, 'Green'],
      [`Black Friday ${tag}`, 'Red'],
    ] as const) {
      await page.getByLabel('Name', { exact: true }).first().fill(label)
      await page.getByRole('radio', { name: colour }).first().check()
      await page.getByRole('button', { name: 'Create label' }).click()
      await expect(page.locator('.label-list').textContent()).resolves.toContain(label)
    }
    await fitsWidth(page)
    await shot(page, `settings-labels-${name}`)
    const labels = await api<Array<{ name: string; color: string }>>('GET', '/v1/labels')
    expect(labels.find((l) => l.name === `Spring ${tag}`)?.color).toBe('#059669')

    // A reviewer, invited by link, then limited to the group.
    await page.goto(`${settings}/members`)
    await page.locator('#invite-role').selectOption('reviewer')
    await page.getByRole('button', { name: 'Create invitation link' }).click()
    const link = (await page.getByTestId('invitation-link').textContent())!.trim()
    const reviewerEmail = email('rita')
    const reviewerContext = await browser.newContext(options)
    const reviewer = await reviewerContext.newPage()
    await reviewer.goto(link)
    await reviewer.getByLabel('Your name').fill(`Rita Reviewer ${tag}`)
    await reviewer.getByLabel('Email').fill(reviewerEmail)
    await reviewer.getByLabel('Password (at least 8 characters)').fill(`reviewer ${randomBase62(12)}`)
    await reviewer.getByRole('button', { name: 'Create account and join' }).click()
    await reviewer.waitForURL(new RegExp(`/app/w/${t.workspaceId}`))

    await page.goto(`${settings}/members`)
    const row = page.locator('.member-row', { hasText: `Rita Reviewer ${tag}` })
    await expect(row.locator('.badge-role').textContent()).resolves.toBe('Reviewer')
    await row.getByText('Limit to groups').click()
    await row.getByRole('checkbox', { name: new RegExp(`Acme ${tag}`) }).check()
    await row.getByRole('button', { name: 'Save groups' }).click()
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('now sees 1 group')
    const limited = page.locator('.member-row', { hasText: `Rita Reviewer ${tag}` })
    await expect(limited.locator('.member-scope').textContent()).resolves.toContain(`Acme ${tag}`)
    await fitsWidth(page)
    await shot(page, `settings-members-${name}`)
    const joined = (await listMembers(t.deps.db, t.workspaceId)).find((m) => m.email === reviewerEmail)!
    expect(joined.role).toBe('reviewer')
    const limit = await listMemberGroupIds(t.deps.db, { workspaceId: t.workspaceId, role: 'reviewer' }, joined.userId)
    expect(limit).toEqual([group.id])

    // The last owner cannot be demoted: the server refuses and the page says so (the first run only: the
    // second one's workspace already has the first run's owner too).
    if (name === 'wide') {
      const ownerRow = page.locator('.member-row', { hasText: owner.email })
      await ownerRow.getByLabel('Role of Olga Owner').selectOption('admin')
      await ownerRow.getByRole('button', { name: 'Change role' }).click()
      await expect(page.getByRole('alert').first().textContent()).resolves.toContain('at least one owner')
    }

    // A token for a reviewer of the group.
    await page.goto(`${settings}/tokens`)
    await page.getByLabel('Token name').fill(`Client portal ${tag}`)
    await page.getByLabel('Role').selectOption('reviewer')
    await page.getByText('Limit to groups').click()
    await page.getByRole('checkbox', { name: new RegExp(`Acme ${tag}`) }).check()
    await page.getByRole('button', { name: 'Create token' }).click()
    await expect(page.getByTestId('new-token').isVisible()).resolves.toBe(true)
    const tokenRow = page.locator('tr', { hasText: `Client portal ${tag}` })
    await expect(tokenRow.textContent()).resolves.toMatch(new RegExp(`Reviewer.*Acme ${tag}`))
    await fitsWidth(page)
    await shot(page, `settings-tokens-${name}`)

    // Accounts: each account's groups as chips, and the filter by group.
    await page.goto(`${t.baseUrl}/app/w/${t.workspaceId}/accounts`)
    await page
      .getByRole('navigation', { name: 'Filter by group' })
      .getByRole('link', { name: `Acme ${tag}` })
      .click()
    await expect(page.locator('.account-card').count()).resolves.toBe(2)
    await expect(page.locator('.account-card').first().locator('.account-groups').textContent()).resolves.toContain(
      `Acme ${tag}`,
    )
    await fitsWidth(page)
    await shot(page, `accounts-groups-${name}`)

    // The reviewer's session: every settings page is a 403 page.
    for (const path of ['', '/members', '/groups', '/labels', '/tokens', '/webhooks']) {
      const res = await reviewer.goto(`${settings}${path}`)
      expect(res?.status(), path).toBe(403)
      await expect(reviewer.locator('main').textContent()).resolves.toContain('Reviewers see and review')
    }
    await shot(reviewer, `settings-reviewer-403-${name}`)
    await reviewerContext.close()
    await context.close()
  })
})
