/**
 * axe-core over the dashboard's pages in chromium: no serious or critical violation. The browser context
 * bypasses the pages' CSP only so that axe's own source can be injected; the pages are served unchanged.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { createInvitation } from '../../src/services/invitations'
import { addMember } from '../../src/services/memberships'
import { createUser } from '../../src/services/users'
import { launchBrowser, serveApp } from '../support/chromium'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface Violation {
  id: string
  impact: string | null
  help: string
  nodes: Array<{ target: string[] }>
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE })
  const violations = (await page.evaluate(
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global the injected script defines
    async () => (await (window as any).axe.run(document)).violations,
  )) as Violation[]
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

describe('dashboard accessibility (axe-core)', () => {
  it('reports no serious or critical violation on the sign-in, sign-up, invitation and settings pages', async () => {
    const browser = await launchBrowser()
    const t = await serveApp({ plan: 'agency' })
    const password = 'axe password'
    const owner = await createUser(t.deps.db, { email: `axe-${randomBase62(6)}@example.com`, name: 'Axe', password })
    await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, owner.id, 'owner'))
    const invitation = await createInvitation(t.deps.db, {
      workspaceId: t.workspaceId,
      role: 'member',
      invitedBy: owner.id,
      now: t.deps.clock.now(),
    })
    const context = await browser.newContext({ bypassCSP: true })
    const page = await context.newPage()
    const found: Record<string, string[]> = {}
    for (const path of ['/app/sign-in', '/app/sign-up', `/app/invitations/${invitation.token}`]) {
      await page.goto(`${t.baseUrl}${path}`)
      found[path] = await seriousViolations(page)
    }
    await page.goto(`${t.baseUrl}/app/sign-in`)
    await page.getByLabel('Email').fill(owner.email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/app\/w\//)
    for (const section of ['', '/members', '/tokens', '/webhooks']) {
      const path = `/app/w/${t.workspaceId}/settings${section}`
      await page.goto(`${t.baseUrl}${path}`)
      found[path] = await seriousViolations(page)
    }
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])))
  })
})
