import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { selectNotifications } from '../../../src/db/queries/notifications'
import { accounts } from '../../../src/db/schema'
import { randomBase62 } from '../../../src/lib/ids'
import { addSandboxAccount } from '../../../src/services/accounts/accounts'
import { addMember } from '../../../src/services/people/memberships'
import { createUser } from '../../../src/services/people/users'
import { runDue } from '../../support/engine'
import { createTestApp, type TestApp } from '../../support/test-app'

async function member(t: TestApp, role: 'owner' | 'admin' | 'member') {
  const user = await createUser(t.deps, {
    email: `t-${randomBase62(8)}@example.com`,
    name: `The ${role}`,
    password: 'a long enough password 7',
  })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, role))
  return user
}

const kinds = async (t: TestApp, userId: string) =>
  (
    await selectNotifications(t.deps.db, {
      userId,
      workspaceId: t.workspaceId,
      unreadOnly: false,
      after: null,
      limit: 50,
    })
  ).map((n) => n.kind)

describe('notifications the service raises', () => {
  it('tells the managers when a target fails (a token made the post), and when its account is disconnected', async () => {
    const t = await createTestApp()
    const owner = await member(t, 'owner')
    const writer = await member(t, 'member')
    const account = await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'CHAT_NET',
      username: 'broken',
      failMode: 'always',
    })
    const created = await (
      await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', accountIds: [account.id], mediaIds: [], action: 'now', caption: 'hi' },
      })
    ).json()
    await runDue(t, t.publishQueue)
    expect((await (await t.call('GET', `/v1/posts/${created.id}`)).json()).status).toBe('FAILED')
    expect(await kinds(t, owner.id)).toEqual(['target_failed'])
    expect(await kinds(t, writer.id)).toEqual([])
    const [failed] = await selectNotifications(t.deps.db, {
      userId: owner.id,
      workspaceId: t.workspaceId,
      unreadOnly: false,
      after: null,
      limit: 1,
    })
    expect(failed).toMatchObject({ subjectId: created.id, link: `/app/w/${t.workspaceId}/posts/${created.id}` })
    expect(failed!.title).toContain('broken')

    expect((await t.call('DELETE', `/v1/accounts/${account.id}`)).status).toBe(200)
    expect((await kinds(t, owner.id)).sort()).toEqual(['account_needs_reconnect', 'target_failed'])
    expect(await kinds(t, writer.id)).toEqual([])
  })

  it('warns the managers once per account and post when a token ends before the post is due', async () => {
    const t = await createTestApp()
    const admin = await member(t, 'admin')
    const account = await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'CHAT_NET',
      username: 'shortlived',
    })
    const soon = new Date(Date.now() + 2 * 3600_000)
    await t.deps.db.update(accounts).set({ tokenExpiresAt: soon }).where(eq(accounts.id, account.id))
    const later = new Date(Date.now() + 3 * 24 * 3600_000).toISOString()
    const res = await t.call('POST', '/v1/posts', {
      body: {
        type: 'IMAGE',
        accountIds: [account.id],
        mediaIds: [],
        action: 'schedule',
        scheduledAt: later,
        caption: 'later',
      },
    })
    const created = await res.json()
    expect(res.status, JSON.stringify(created)).toBe(200)
    expect(created.warnings.map((w: { code: string }) => w.code)).toContain('token_expires')
    const edited = await t.call('PATCH', `/v1/posts/${created.id}`, { body: { caption: 'later, edited' } })
    expect(edited.status).toBe(200)
    expect(await kinds(t, admin.id)).toEqual(['token_expires_before_post'])
  })
})
