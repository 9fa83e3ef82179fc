import { describe, expect, it } from 'vitest'
import { acceptInvitation, createInvitation, inspectInvitation } from '../../src/services/invitations'
import { changeMemberRole, getMembership, listMembers, removeMember } from '../../src/services/memberships'
import { checkPassword, createUser, signUp } from '../../src/services/users'
import { createTestApp } from '../support/test-app'
import { randomBase62 } from '../../src/lib/ids'

const email = () => `p-${randomBase62(8)}@example.com`

describe('people: users, seats and invitations', () => {
  it('signs a user up as owner of a new workspace; the email is unique whatever its case', async () => {
    const t = await createTestApp()
    const address = email()
    const { user, workspaceId } = await signUp(t.deps.db, { email: address, name: 'Ada', password: 'long enough pw' })
    expect((await getMembership(t.deps.db, workspaceId, user.id))?.role).toBe('owner')
    await expect(
      createUser(t.deps.db, { email: address.toUpperCase(), name: 'Eve', password: 'another password' }),
    ).rejects.toMatchObject({ code: 'invalid_request', details: [{ path: 'email' }] })
    expect((await checkPassword(t.deps.db, address.toUpperCase(), 'long enough pw'))?.id).toBe(user.id)
    expect(await checkPassword(t.deps.db, address, 'wrong password')).toBeNull()
    expect(await checkPassword(t.deps.db, email(), 'long enough pw')).toBeNull()
  })

  it('accepts invitations up to the plan seats, then refuses with the figure; GET /v1/me counts seats', async () => {
    const t = await createTestApp({ plan: 'pro' }) // 3 seats
    const now = t.deps.clock.now()
    const owner = await createUser(t.deps.db, { email: email(), name: 'Owner', password: 'password-1' })
    const links: string[] = []
    for (let i = 0; i < 3; i++) {
      links.push(
        (await createInvitation(t.deps.db, { workspaceId: t.workspaceId, role: 'member', invitedBy: owner.id, now }))
          .token,
      )
    }
    for (const [i, token] of links.entries()) {
      const invitee = await createUser(t.deps.db, { email: email(), name: `M${i}`, password: 'password-1' })
      await acceptInvitation(t.deps.db, token, invitee.id, now)
    }
    expect((await (await t.call('GET', '/v1/me')).json()).usage.seats).toBe(3)
    await expect(
      createInvitation(t.deps.db, { workspaceId: t.workspaceId, role: 'member', invitedBy: owner.id, now }),
    ).rejects.toMatchObject({ code: 'plan_limit_reached', details: [{ path: 'seats', limit: 3 }] })
    expect(await inspectInvitation(t.deps.db, links[0]!, now)).toEqual({ state: 'used' })
    await expect(acceptInvitation(t.deps.db, links[0]!, owner.id, now)).rejects.toThrow(/already been used/)
  })

  it('refuses an accept past the seats even when the link was made while one was free', async () => {
    const t = await createTestApp({ plan: 'free' }) // 1 seat
    const now = t.deps.clock.now()
    const a = await createUser(t.deps.db, { email: email(), name: 'A', password: 'password-1' })
    const b = await createUser(t.deps.db, { email: email(), name: 'B', password: 'password-1' })
    const first = await createInvitation(t.deps.db, { workspaceId: t.workspaceId, role: 'admin', invitedBy: a.id, now })
    const second = await createInvitation(t.deps.db, {
      workspaceId: t.workspaceId,
      role: 'member',
      invitedBy: a.id,
      now,
    })
    await acceptInvitation(t.deps.db, first.token, a.id, now)
    await expect(acceptInvitation(t.deps.db, second.token, b.id, now)).rejects.toMatchObject({
      code: 'plan_limit_reached',
      message: expect.stringContaining('allows 1 seats'),
    })
    expect((await inspectInvitation(t.deps.db, second.token, now)).state).toBe('valid')
    const later = new Date(now.getTime() + 8 * 24 * 3600 * 1000)
    expect(await inspectInvitation(t.deps.db, second.token, later)).toEqual({ state: 'expired' })
  })

  it('keeps at least one owner', async () => {
    const t = await createTestApp()
    const { user, workspaceId } = await signUp(t.deps.db, { email: email(), name: 'Solo', password: 'password-1' })
    await expect(changeMemberRole(t.deps.db, workspaceId, user.id, 'member')).rejects.toThrow(/at least one owner/)
    await expect(removeMember(t.deps.db, workspaceId, user.id)).rejects.toThrow(/at least one owner/)
    expect(await listMembers(t.deps.db, workspaceId)).toHaveLength(1)
  })
})
