/**
 * axe-core over the dashboard's pages in chromium: no serious or critical violation. The browser context
 * bypasses the pages' CSP only so that axe's own source can be injected; the pages are served unchanged.
 * Every page a member can reach is visited: the sign-in pages, the working pages (with a published post,
 * a scheduled one, media and accounts to show), settings, the agents' consent page and the 404 page.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { createInvitation } from '../../src/services/people/invitations'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'
import { registerAgentClient } from '../../src/services/agent-oauth/clients'
import { launchBrowser, serveApp } from '../support/chromium'
import { runDue } from '../support/engine'
import { account, storedMedia } from '../support/fixtures'
import { jpeg, paint } from '../support/media'

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
    const password = 'axe audit lantern moss'
    const owner = await createUser(t.deps, { email: `axe-${randomBase62(6)}@example.com`, name: 'Axe', password })
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

  it('reports no serious or critical violation on the working pages, the consent page and the 404 page', async () => {
    const browser = await launchBrowser()
    const t = await serveApp({ plan: 'agency' })
    const password = 'axe audit lantern moss'
    const owner = await createUser(t.deps, { email: `axe-${randomBase62(6)}@example.com`, name: 'Axe', password })
    await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, owner.id, 'owner'))
    const micro = await account(t, 'MICROBLOG_NET', 'axe-micro')
    const pins = await account(t, 'PINBOARD_NET', 'axe-pins')
    const photo = await jpeg(paint(320, 400, (x, y) => [x % 256, y % 256, 90]))
    const mediaId = await storedMedia(t, { bytes: photo, mimeType: 'image/jpeg', altText: 'A gradient' })
    const post = async (body: Record<string, unknown>) => {
      const res = await t.call('POST', '/v1/posts', { body: { type: 'IMAGE', caption: 'Axe check', ...body } })
      expect([res.status, res.status === 200 ? null : await res.text()]).toEqual([200, null])
      return (await res.json()) as { id: string }
    }
    const boards = (await (await t.call('GET', `/v1/accounts/${pins.id}/boards`)).json()) as {
      boards: { id: string }[]
    }
    const published = await post({ accountIds: [micro.id], mediaIds: [], action: 'now' })
    await runDue(t, t.publishQueue)
    const scheduled = await post({
      accountIds: [micro.id, pins.id],
      mediaIds: [mediaId],
      action: 'schedule',
      scheduledAt: new Date(Date.now() + 48 * 3600_000).toISOString(),
      pinboardNetBoards: { [pins.id]: boards.boards[0]!.id },
    })
    const client = await registerAgentClient(t.deps.db, {
      client_name: 'Axe agent',
      redirect_uris: ['http://127.0.0.1:9/callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    })
    const consent = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: 'http://127.0.0.1:9/callback',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: `${t.baseUrl}/mcp`,
      state: 'axe',
    })

    const context = await browser.newContext({ bypassCSP: true })
    const page = await context.newPage()
    await page.goto(`${t.baseUrl}/app/sign-in`)
    await page.getByLabel('Email').fill(owner.email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/app\/w\//)
    const workspace = `/app/w/${t.workspaceId}`
    const paths = [
      workspace,
      `${workspace}/calendar?view=month`,
      `${workspace}/compose`,
      `${workspace}/posts/${published.id}`,
      `${workspace}/posts/${scheduled.id}`,
      `${workspace}/posts/${scheduled.id}/edit`,
      `${workspace}/accounts`,
      `${workspace}/media`,
      `${workspace}/media/${mediaId}/canvases`,
      `${workspace}/queue`,
      `${workspace}/analytics`,
      `/app/oauth/authorize?${consent}`,
      `${workspace}/posts/post_doesNotExist`,
    ]
    const found: Record<string, string[]> = {}
    for (const path of paths) {
      const answer = await page.goto(`${t.baseUrl}${path}`)
      // Each page is what it claims to be (not an error page that happens to pass), except the last one.
      expect([path, answer?.status()]).toEqual([path, path.endsWith('doesNotExist') ? 404 : 200])
      found[path] = await seriousViolations(page)
    }
    expect(found).toEqual(Object.fromEntries(paths.map((k) => [k, []])))
  })
})
