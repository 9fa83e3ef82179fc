import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { activityLog } from '../../src/db/schema'
import { signInMember } from '../support/dashboard'
import { createTestApp } from '../support/test-app'

const FORM_TYPE = 'application/x-www-form-urlencoded'
const post = (cookie: string, fields: Record<string, string>) => ({
  method: 'POST',
  headers: { cookie, 'content-type': FORM_TYPE },
  body: new URLSearchParams(fields).toString(),
})

describe('the activity log in the dashboard', () => {
  it("records a signed-in owner's changes as theirs, and shows them on the settings page with the CSV link", async () => {
    const t = await createTestApp({ timezone: 'Europe/Berlin' })
    const owner = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'owner' })
    const base = `/app/w/${t.workspaceId}/settings`
    const saved = await t.app.request(
      base,
      post(owner.cookie, { _csrf: owner.csrfToken, name: 'Agency One', timezone: 'Europe/Paris' }),
    )
    expect(saved.status).toBe(200)
    await t.app.request(`${base}/tokens`, post(owner.cookie, { _csrf: owner.csrfToken, name: 'ci' }))
    const rows = await t.deps.db.select().from(activityLog).where(eq(activityLog.workspaceId, t.workspaceId))
    const mine = rows.filter((r) => r.actorKind === 'user')
    expect(mine.map((r) => r.action).sort()).toEqual(['token.created', 'workspace.updated'])
    for (const r of mine) expect(r.actor).toEqual({ kind: 'user', id: owner.userId, name: 'Test member' })
    const settings = mine.find((r) => r.action === 'workspace.updated')!
    expect(settings.summary).toBe(
      'Test member changed the workspace settings: name "Agency One", time zone Europe/Paris.',
    )
    expect(settings.details).toMatchObject({ changes: { name: 'Agency One', timezone: 'Europe/Paris' } })

    const page = await t.app.request(`${base}/activity?actorKind=user`, { headers: { cookie: owner.cookie } })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('changed the workspace settings: name')
    expect(html).toContain('Download CSV')
    expect(html).not.toContain('account.connected')
    const csv = await t.app.request(`${base}/activity.csv?action=token.`, { headers: { cookie: owner.cookie } })
    expect(csv.headers.get('content-type')).toContain('text/csv')
    const lines = (await csv.text()).trim().split('\r\n')
    expect(lines.slice(1).every((l) => l.includes(',token.created,'))).toBe(true)
  })

  it('refuses the page to members who do not manage the workspace', async () => {
    const t = await createTestApp()
    const member = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'member' })
    const base = `/app/w/${t.workspaceId}/settings`
    expect((await t.app.request(`${base}/activity`, { headers: { cookie: member.cookie } })).status).toBe(403)
    expect((await t.app.request(`${base}/activity.csv`, { headers: { cookie: member.cookie } })).status).toBe(403)
  })
})
