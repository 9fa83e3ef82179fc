import { describe, expect, it } from 'vitest'
import { createInvitation } from '../../src/services/people/invitations'
import { listMembers } from '../../src/services/people/memberships'
import { checkPassword, createUser } from '../../src/services/people/users'
import { cookiesOf, signInMember } from '../support/dashboard'
import { createTestApp } from '../support/test-app'
import { fixedClock } from '../support/fixtures'
import { randomBase62 } from '../../src/lib/ids'

const FORM_TYPE = 'application/x-www-form-urlencoded'
const post = (cookie: string, fields: Record<string, string>) => ({
  method: 'POST',
  headers: { cookie, 'content-type': FORM_TYPE },
  body: new URLSearchParams(fields).toString(),
})

describe('dashboard members and invitations', () => {
  it('joins through an invitation link as a new user; the link then says it was used', async () => {
    const t = await createTestApp()
    const owner = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'owner' })
    const created = await t.app.request(
      `/app/w/${t.workspaceId}/settings/invitations`,
      post(owner.cookie, { _csrf: owner.csrfToken, role: 'admin' }),
    )
    const link = /(http:\/\/localhost\/app\/invitations\/[0-9A-Za-z]{43})/.exec(await created.text())![1]!
    const path = new URL(link).pathname
    const page = await t.app.request(path)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('as <strong>admin</strong>')
    const formCookie = cookiesOf(page).sps_form!
    const email = `join-${randomBase62(6)}@example.com`
    const joined = await t.app.request(
      path,
      post(`sps_form=${formCookie}`, { _csrf: formCookie, name: 'Jo <i>', email, password: 'velvet harbour lantern' }),
    )
    expect(joined.status).toBe(303)
    expect(joined.headers.get('location')).toBe(`/app/w/${t.workspaceId}`)
    const members = await listMembers(t.deps.db, t.workspaceId)
    expect(members.find((m) => m.email === email)).toMatchObject({ role: 'admin', name: 'Jo <i>' })
    const membersPage = await (
      await t.app.request(`/app/w/${t.workspaceId}/settings/members`, { headers: { cookie: owner.cookie } })
    ).text()
    expect(membersPage).toContain('Jo &lt;i&gt;')
    const again = await t.app.request(path)
    expect(again.status).toBe(410)
    expect(await again.text()).toContain('This invitation has already been used.')
  })

  it('refuses a weak password on the invitation form with the reason beside the field, keeping name and email', async () => {
    const t = await createTestApp()
    const owner = await createUser(t.deps, {
      email: `o-${randomBase62(6)}@example.com`,
      name: 'O',
      password: 'maple kettle orbit',
    })
    const invitation = await createInvitation(t.deps.db, {
      workspaceId: t.workspaceId,
      role: 'member',
      invitedBy: owner.id,
      now: t.deps.clock.now(),
    })
    const path = `/app/invitations/${invitation.token}`
    const cases: Array<[string, RegExp]> = [
      ['12345678', /among the most common ones/],
      // The workspace joined ("Test workspace") is part of the context.
      ['testworkspace2026', /built from the workspace name/],
    ]
    for (const [password, reason] of cases) {
      const formCookie = cookiesOf(await t.app.request(path)).sps_form!
      const email = `weak-${randomBase62(6)}@example.com`
      const res = await t.app.request(
        path,
        post(`sps_form=${formCookie}`, { _csrf: formCookie, name: 'Wen', email, password }),
      )
      expect(res.status).toBe(400)
      const html = await res.text()
      expect(/<p id="f-password-error" class="error">([^<]*)<\/p>/.exec(html)?.[1]).toMatch(reason)
      expect(html).toContain(`value="${email}"`)
      expect(html).toContain('value="Wen"')
      expect(await checkPassword(t.deps.db, email, password)).toBeNull()
    }
  })

  it('refuses to join a workspace whose seats are taken, and leaves no account behind', async () => {
    const t = await createTestApp({ plan: 'free' }) // 1 seat
    const owner = await createUser(t.deps, {
      email: `o-${randomBase62(6)}@example.com`,
      name: 'O',
      password: 'maple kettle orbit',
    })
    const invitation = await createInvitation(t.deps.db, {
      workspaceId: t.workspaceId,
      role: 'member',
      invitedBy: owner.id,
      now: t.deps.clock.now(),
    })
    await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'owner' }) // takes the seat
    const path = `/app/invitations/${invitation.token}`
    const formCookie = cookiesOf(await t.app.request(path)).sps_form!
    const email = `late-${randomBase62(6)}@example.com`
    const res = await t.app.request(
      path,
      post(`sps_form=${formCookie}`, { _csrf: formCookie, name: 'Late', email, password: 'too late for tulips' }),
    )
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('Your plan allows 1 seats')
    expect(await checkPassword(t.deps.db, email, 'too late for tulips')).toBeNull()
  })

  it('says an expired invitation has expired', async () => {
    const clock = fixedClock('2026-11-01T10:00:00Z')
    const t = await createTestApp({ clock })
    const owner = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'owner' })
    const invitation = await createInvitation(t.deps.db, {
      workspaceId: t.workspaceId,
      role: 'member',
      invitedBy: owner.userId,
      now: new Date('2026-10-20T10:00:00Z'),
    })
    const res = await t.app.request(`/app/invitations/${invitation.token}`)
    expect(res.status).toBe(410)
    expect(await res.text()).toContain('This invitation has expired; ask for a new one.')
  })

  it('lets an admin change a member role and remove a member, but not touch an owner', async () => {
    const t = await createTestApp()
    const owner = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'owner' })
    const admin = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'admin' })
    const member = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'member' })
    const base = `/app/w/${t.workspaceId}/settings/members`
    const role = await t.app.request(
      `${base}/${member.userId}/role`,
      post(admin.cookie, { _csrf: admin.csrfToken, role: 'admin' }),
    )
    expect(role.status).toBe(200)
    const ownerRemoval = await t.app.request(
      `${base}/${owner.userId}/remove`,
      post(admin.cookie, { _csrf: admin.csrfToken }),
    )
    expect(ownerRemoval.status).toBe(403)
    const removed = await t.app.request(
      `${base}/${member.userId}/remove`,
      post(admin.cookie, { _csrf: admin.csrfToken }),
    )
    expect(removed.status).toBe(200)
    expect((await listMembers(t.deps.db, t.workspaceId)).map((m) => m.userId).sort()).toEqual(
      [owner.userId, admin.userId].sort(),
    )
    // The removed member's pages of this workspace are gone for them.
    expect(
      (await t.app.request(`/app/w/${t.workspaceId}/settings`, { headers: { cookie: member.cookie } })).status,
    ).toBe(404)
  })
})
