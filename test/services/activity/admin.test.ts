import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { activityLog } from '../../../src/db/schema'
import { expireAccount } from '../../../src/services/accounts/accounts'
import type { Caller } from '../../../src/services/caller'
import { acceptInvitation, createInvitation, revokeInvitation } from '../../../src/services/people/invitations'
import { addMember, changeMemberRole, removeMember } from '../../../src/services/people/memberships'
import { createUser } from '../../../src/services/people/users'
import { newOutbox } from '../../../src/services/webhooks/outbox'
import { randomBase62 } from '../../../src/lib/ids'
import { account } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const entriesOf = async (t: TestApp) =>
  (await t.deps.db.select().from(activityLog).where(eq(activityLog.workspaceId, t.workspaceId))).sort(
    (a, b) => a.at.getTime() - b.at.getTime(),
  )

async function user(t: TestApp, name: string) {
  return createUser(t.deps, { email: `${randomBase62(8)}@example.com`, name, password: `pw-${randomBase62(16)}` })
}

describe('activity of members and accounts', () => {
  it('records invitations, joining, role changes and removals with who did each', async () => {
    const t = await createTestApp({ plan: 'agency' })
    const ana = await user(t, 'Ana')
    await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, ana.id, 'owner'))
    const caller: Caller = {
      workspaceId: t.workspaceId,
      access: { role: 'owner', groupIds: null },
      actor: { kind: 'user', id: ana.id, name: 'Ana' },
      userId: ana.id,
      ip: '203.0.113.9',
    }
    const now = new Date(Date.now() - 60_000)
    const later = (ms: number) => new Date(now.getTime() + ms)
    const invited = await createInvitation(t.deps.db, {
      workspaceId: t.workspaceId,
      role: 'member',
      invitedBy: ana.id,
      now: later(1),
      caller,
    })
    const withdrawn = await createInvitation(t.deps.db, {
      workspaceId: t.workspaceId,
      role: 'admin',
      invitedBy: ana.id,
      now: later(2),
      caller,
    })
    await revokeInvitation(t.deps.db, caller, withdrawn.id, later(3))
    const bo = await user(t, 'Bo')
    await acceptInvitation(t.deps.db, invited.token, bo.id, later(4), { ip: '198.51.100.7' })
    await changeMemberRole(t.deps.db, caller, bo.id, 'admin')
    await removeMember(t.deps.db, caller, bo.id)
    await expect(removeMember(t.deps.db, caller, bo.id)).rejects.toMatchObject({ code: 'not_found' })

    const rows = (await entriesOf(t)).filter((r) => r.action.startsWith('member.'))
    expect(rows.map((r) => [r.action, r.actor.name, r.ip])).toEqual([
      ['member.invited', 'Ana', '203.0.113.9'],
      ['member.invited', 'Ana', '203.0.113.9'],
      ['member.invitation_revoked', 'Ana', '203.0.113.9'],
      ['member.joined', 'Bo', '198.51.100.7'],
      ['member.role_changed', 'Ana', '203.0.113.9'],
      ['member.removed', 'Ana', '203.0.113.9'],
    ])
    expect(rows[4]!.summary).toBe('Ana changed the role of Bo from member to admin')
    for (const r of rows) expect(JSON.stringify(r)).not.toContain(invited.token)
  })

  it('records an expired account by the service, once', async () => {
    const t = await createTestApp()
    const a = await account(t, 'MICROBLOG_NET')
    for (let i = 0; i < 2; i++) {
      await t.deps.db.transaction((tx) => expireAccount(tx, newOutbox(), a.id, 'The token was revoked.', new Date()))
    }
    const rows = (await entriesOf(t)).filter((r) => r.subjectId === a.id)
    expect(rows.map((r) => [r.action, r.actorKind])).toEqual([
      ['account.connected', 'system'],
      ['account.expired', 'system'],
    ])
    expect(rows[1]!.details).toMatchObject({ reason: 'The token was revoked.' })
  })
})
