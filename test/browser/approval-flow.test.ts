/**
 * The approval path in a real browser, at a desktop width and a phone width, in a workspace that
 * requires approval: a member composes a post and submits it for review (to be scheduled once
 * approved) and leaves a note mentioning the reviewer through the @ picker (keyboard only); the
 * reviewer, in another browser context, finds it under Review and requests changes with a comment;
 * the member reads the comment, edits and resubmits; the reviewer's decision on a page opened before
 * another edit is refused as stale and the page shows the post again; the reviewer approves and the
 * post is SCHEDULED (read back through the service). The reviewer is never offered compose or connect.
 */
import { eq } from 'drizzle-orm'
import type { Browser, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { workspaces } from '../../src/db/schema/workspaces'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { getPost } from '../../src/services/posts/read'
import { createUser } from '../../src/services/people/users'
import { launchBrowser, type ServedApp, serveApp } from '../support/chromium'
import { account } from '../support/fixtures'

let t: ServedApp
let browser: Browser
const people = { member: { email: '', name: 'Mia Member' }, reviewer: { email: '', name: 'Rita Reviewer' } }
const PASSWORD = 'a long enough passphrase 7'
/** Console errors and uncaught exceptions of every page (none expected). */
const problems: string[] = []

beforeAll(async () => {
  browser = await launchBrowser()
  t = await serveApp({ plan: 'pro' })
  await t.deps.db.update(workspaces).set({ approvalRequired: true }).where(eq(workspaces.id, t.workspaceId))
  for (const role of ['member', 'reviewer'] as const) {
    const who = people[role]
    who.email = `${role}-${randomBase62(6)}@example.com`
    const user = await createUser(t.deps, { email: who.email, name: who.name, password: PASSWORD })
    await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, role))
  }
})

async function signIn(role: 'member' | 'reviewer', width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  const page = await context.newPage()
  page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined))
  page.on('pageerror', (e) => problems.push(e.message))
  await page.goto(`${t.baseUrl}/app/sign-in`)
  await page.getByLabel('Email').fill(people[role].email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(/\/app\/w\//)
  return page
}

const statusOf = async (postId: string) => (await getPost(t.deps.db, t.workspaceId, postId)).status

describe.each([1280, 390])('the approval path at %i px', (width) => {
  it('submit, request changes, resubmit, a stale decision refused, approve: the post is scheduled', async () => {
    const workspace = `${t.baseUrl}/app/w/${t.workspaceId}`
    const acct = await account(t, 'MICROBLOG_NET', `brand-${width}`)
    const member = await signIn('member', width)
    const reviewer = await signIn('reviewer', width)

    // The member composes; the composer says why approval is needed and offers Submit for review.
    await member.goto(`${workspace}/compose`)
    expect(await member.locator('#review-why').textContent()).toContain('approves')
    expect(await member.getByRole('button', { name: 'Schedule', exact: true }).count()).toBe(0)
    await member.locator(`#account-${acct.id}`).check()
    await member.getByLabel('Caption', { exact: true }).fill(`Spring menu teaser (${width})`)
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10)
    await member.locator('#scheduledAt').fill(`${tomorrow}T10:30`)
    await member.getByLabel('Once approved').selectOption('schedule')
    await member.getByRole('button', { name: 'Submit for review' }).click()
    await member.waitForURL(/\/posts\/post_/)
    const postId = new URL(member.url()).pathname.split('/').pop() ?? ''
    expect(await statusOf(postId)).toBe('IN_REVIEW')
    expect(await member.locator('.post-header .badge').textContent()).toBe('In review')

    // A note mentioning the reviewer, picked from the list with the keyboard.
    const note = member.locator('#note-body')
    await note.fill('Can you check the price? ')
    await note.press('End')
    await note.pressSequentially('@Ri')
    await expect.poll(() => member.locator('#mention-list').isVisible()).toBe(true)
    expect(await note.getAttribute('aria-expanded')).toBe('true')
    await note.press('Enter')
    expect(await note.inputValue()).toBe('Can you check the price? @Rita Reviewer ')
    await member.getByRole('button', { name: 'Add note' }).click()
    await member.waitForLoadState()
    expect(await member.locator('.note mark.mention').textContent()).toBe('@Rita Reviewer')

    // The reviewer: no compose or connect entry points; the post under Review; changes requested.
    await reviewer.goto(`${workspace}/calendar`)
    expect(await reviewer.locator('a[href$="/compose"]').count()).toBe(0)
    await reviewer.goto(`${workspace}/accounts`)
    expect(await reviewer.getByRole('button', { name: 'Connect an account' }).count()).toBe(0)
    await reviewer.goto(`${workspace}/review`)
    await reviewer.locator(`a[href$="/posts/${postId}"]`).click()
    expect(await reviewer.locator('.note mark.mention').textContent()).toBe('@Rita Reviewer')
    await reviewer.getByText('Request changes', { exact: true }).click()
    await reviewer.getByLabel('What should change').fill('Say the price is for two.')
    await reviewer.getByRole('button', { name: 'Send the request' }).click()
    await reviewer.waitForLoadState()
    expect(await statusOf(postId)).toBe('CHANGES_REQUESTED')

    // The member reads the comment, edits and resubmits.
    await member.reload()
    expect(await member.locator('.approval-comment').textContent()).toContain('Say the price is for two.')
    await member.getByRole('link', { name: 'Edit the post' }).click()
    await member.getByLabel('Caption', { exact: true }).fill(`Spring menu for two, 30 euros (${width})`)
    await member.getByRole('button', { name: 'Submit for review' }).click()
    await member.waitForURL(/\/posts\/post_[^/]+$/)
    expect(await statusOf(postId)).toBe('IN_REVIEW')

    // The reviewer opens it; the member changes it again meanwhile: the reviewer's approval is stale.
    await reviewer.goto(`${workspace}/posts/${postId}`)
    await member.goto(`${workspace}/posts/${postId}/edit`)
    await member
      .getByLabel('Caption', { exact: true })
      .fill(`Spring menu for two, 30 euros, drinks included (${width})`)
    await member.getByRole('button', { name: 'Submit for review' }).click()
    await member.waitForURL(/\/posts\/post_[^/]+$/)
    await reviewer.getByRole('button', { name: 'Approve' }).click()
    await reviewer.waitForLoadState()
    expect(await reviewer.locator('main [role=alert]').first().textContent()).toContain(
      'This post changed since you opened it',
    )
    expect(await statusOf(postId)).toBe('IN_REVIEW')

    // The page drawn again shows the new text; approving now schedules it.
    expect(await reviewer.locator('main').textContent()).toContain('drinks included')
    await reviewer.getByRole('button', { name: 'Approve' }).click()
    await reviewer.waitForLoadState()
    expect(await statusOf(postId)).toBe('SCHEDULED')
    expect(await reviewer.locator('.post-header .badge').textContent()).toBe('Scheduled')
    const overflow = await reviewer.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
    expect(overflow).toBe(false)

    await member.context().close()
    await reviewer.context().close()
    expect(problems).toEqual([])
  }, 120_000)
})
