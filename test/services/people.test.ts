import { describe, expect, it } from 'vitest'
import { acceptInvitation, createInvitation, inspectInvitation } from '../../src/services/people/invitations'
import { changeMemberRole, getMembership, listMembers, removeMember } from '../../src/services/people/memberships'
import { checkPassword, createUser, signUp } from '../../src/services/people/users'
import { createTestApp } from '../support/test-app'
import { randomBase62 } from '../../src/lib/ids'
import { hashPassword, verifyPassword } from '../../src/lib/password'
import { findUserByEmail, setUserPasswordHash } from '../../src/db/queries/users'

const email = () => `p-${randomBase62(8)}@example.com`

describe('people: users, seats and invitations', () => {
  it('signs a user up as owner of a new workspace; the email is unique whatever its case', async () => {
    const t = await createTestApp()
    const address = email()
    const { user, workspaceId } = await signUp(t.deps, { email: address, name: 'Ada', password: 'long enough pw' })
    expect((await getMembership(t.deps.db, workspaceId, user.id))?.role).toBe('owner')
    await expect(
      createUser(t.deps, { email: address.toUpperCase(), name: 'Eve', password: 'another password' }),
    ).rejects.toMatchObject({ code: 'invalid_request', details: [{ path: 'email' }] })
    expect((await checkPassword(t.deps.db, address.toUpperCase(), 'long enough pw'))?.id).toBe(user.id)
    expect(await checkPassword(t.deps.db, address, 'wrong password')).toBeNull()
    expect(await checkPassword(t.deps.db, email(), 'long enough pw')).toBeNull()
  })

  it('refuses a weak password wherever a user is created (sign-up, invitations, the demo user), naming the field', async () => {
    const t = await createTestApp()
    for (const password of ['        ', 'password', '12345678']) {
      await expect(createUser(t.deps, { email: email(), name: 'Weak', password })).rejects.toMatchObject({
        code: 'invalid_request',
        details: [{ path: 'password', message: expect.stringMatching(/spaces|most common/) }],
      })
      await expect(signUp(t.deps, { email: email(), name: 'Weak', password })).rejects.toMatchObject({
        details: [{ path: 'password' }],
      })
    }
    // The workspace signed up for is part of the context, also when left to its default name.
    await expect(
      signUp(t.deps, { email: email(), name: 'Wilhelmina', password: "wilhelmina's workspace" }),
    ).rejects.toMatchObject({ details: [{ path: 'password', message: expect.stringMatching(/built from/) }] })
  })

  it('compares passwords NFKC-normalized, and still signs in (and re-hashes) a password hashed before that', async () => {
    const t = await createTestApp()
    // "ﬁ" (one ligature) and "fi" are one password once normalized.
    const user = await createUser(t.deps, { email: email(), name: 'Fiona', password: 'ﬁne harbour lantern' })
    expect((await checkPassword(t.deps.db, user.email, 'fine harbour lantern'))?.id).toBe(user.id)
    // A hash made of the password as typed (before normalization) keeps working, and is replaced.
    const typed = 'ﬁne velvet orbit'
    await setUserPasswordHash(t.deps.db, user.id, await hashPassword(typed, 1_000))
    expect((await checkPassword(t.deps.db, user.email, typed))?.id).toBe(user.id)
    const rehashed = (await findUserByEmail(t.deps.db, user.email))!.passwordHash
    expect(await verifyPassword('fine velvet orbit', rehashed)).toBe(true)
    expect((await checkPassword(t.deps.db, user.email, 'fine velvet orbit'))?.id).toBe(user.id)
  })

  it('accepts invitations up to the plan seats, then refuses with the figure; GET /v1/me counts seats', async () => {
    const t = await createTestApp({ plan: 'pro' }) // 3 seats
    const now = t.deps.clock.now()
    const owner = await createUser(t.deps, { email: email(), name: 'Owner', password: 'maple kettle orbit' })
    const links: string[] = []
    for (let i = 0; i < 3; i++) {
      links.push(
        (await createInvitation(t.deps.db, { workspaceId: t.workspaceId, role: 'member', invitedBy: owner.id, now }))
          .token,
      )
    }
    for (const [i, token] of links.entries()) {
      const invitee = await createUser(t.deps, { email: email(), name: `M${i}`, password: 'maple kettle orbit' })
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
    const a = await createUser(t.deps, { email: email(), name: 'A', password: 'maple kettle orbit' })
    const b = await createUser(t.deps, { email: email(), name: 'B', password: 'maple kettle orbit' })
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
    const { user, workspaceId } = await signUp(t.deps, {
      email: email(),
      name: 'Solo',
      password: 'maple kettle orbit',
    })
    await expect(changeMemberRole(t.deps.db, workspaceId, user.id, 'member')).rejects.toThrow(/at least one owner/)
    await expect(removeMember(t.deps.db, workspaceId, user.id)).rejects.toThrow(/at least one owner/)
    expect(await listMembers(t.deps.db, workspaceId)).toHaveLength(1)
  })
})
