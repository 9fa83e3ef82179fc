import { describe, expect, it } from 'vitest'
import { selectNotifications, selectWorkspaceEmails, upsertPreferences } from '../../../src/db/queries/notifications'
import { randomBase62 } from '../../../src/lib/ids'
import { addMember } from '../../../src/services/people/memberships'
import { notify, type NotifyInput } from '../../../src/services/notifications/notify'
import { createUser } from '../../../src/services/people/users'
import { createTestApp, type TestApp } from '../../support/test-app'

async function member(t: TestApp, name: string, role: 'owner' | 'admin' | 'member' | 'reviewer') {
  const user = await createUser(t.deps, {
    email: `n-${randomBase62(8)}@example.com`,
    name,
    password: 'a long enough password 7',
  })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, role))
  return user
}

const input = (t: TestApp, over: Partial<NotifyInput>): NotifyInput => ({
  workspaceId: t.workspaceId,
  kind: 'target_failed',
  recipients: {},
  title: 'A post failed on one account',
  body: 'The post "Launch" could not be published to @brand.',
  link: `/app/w/${t.workspaceId}/posts/post_x`,
  subject: { type: 'post', id: 'post_x' },
  now: new Date(),
  ...over,
})

const inbox = (t: TestApp, userId: string) =>
  selectNotifications(t.deps.db, { userId, workspaceId: t.workspaceId, unreadOnly: false, after: null, limit: 50 })

describe('notify', () => {
  it('tells members by id and by role (not the one who acted, not outsiders), with an email each by default', async () => {
    const t = await createTestApp()
    const owner = await member(t, 'Olga', 'owner')
    const admin = await member(t, 'Adam', 'admin')
    const writer = await member(t, 'Wanda', 'member')
    const outsider = await createUser(t.deps, {
      email: `x-${randomBase62(8)}@example.com`,
      name: 'Xena',
      password: 'a long enough password 7',
    })
    const result = await t.deps.db.transaction((tx) =>
      notify(
        tx,
        input(t, {
          recipients: { roles: ['owner', 'admin'], userIds: [writer.id, outsider.id] },
          exceptUserId: admin.id,
        }),
      ),
    )
    expect(result.notified.sort()).toEqual([owner.id, writer.id].sort())
    expect(await inbox(t, admin.id)).toHaveLength(0)
    expect(await inbox(t, outsider.id)).toHaveLength(0)
    const [row] = await inbox(t, writer.id)
    expect(row).toMatchObject({
      kind: 'target_failed',
      title: 'A post failed on one account',
      subjectId: 'post_x',
      readAt: null,
    })
    const emails = await selectWorkspaceEmails(t.deps.db, t.workspaceId)
    expect(emails.map((e) => e.toAddress).sort()).toEqual([owner.email, writer.email].sort())
    expect(emails[0]).toMatchObject({ status: 'PENDING', attempts: 0, subject: 'A post failed on one account' })
    expect(emails[0]!.textBody).toContain(`/app/w/${t.workspaceId}/posts/post_x`)
    expect(emails[0]!.textBody).toContain(`/app/w/${t.workspaceId}/settings/notifications`)
  })

  it('respects each user’s channels, and tells a user once per dedupe key', async () => {
    const t = await createTestApp()
    const quiet = await member(t, 'Quinn', 'member')
    const mailOnly = await member(t, 'Mel', 'member')
    await upsertPreferences(t.deps.db, [
      { userId: quiet.id, workspaceId: t.workspaceId, kind: 'mentioned', inApp: false, email: false },
      { userId: mailOnly.id, workspaceId: t.workspaceId, kind: 'mentioned', inApp: false, email: true },
    ])
    const once = input(t, { kind: 'mentioned', recipients: { userIds: [quiet.id, mailOnly.id] } })
    const result = await t.deps.db.transaction((tx) => notify(tx, once))
    expect(result).toEqual({ notified: [], emailed: [mailOnly.id] })
    expect(await inbox(t, quiet.id)).toHaveLength(0)

    const writer = await member(t, 'Wes', 'member')
    const warn = input(t, {
      kind: 'token_expires_before_post',
      recipients: { userIds: [writer.id] },
      dedupeKey: 'token:acc_1:post_1',
    })
    expect((await t.deps.db.transaction((tx) => notify(tx, warn))).notified).toEqual([writer.id])
    expect(await t.deps.db.transaction((tx) => notify(tx, warn))).toEqual({ notified: [], emailed: [] })
    expect(await inbox(t, writer.id)).toHaveLength(1)
    const emails = await selectWorkspaceEmails(t.deps.db, t.workspaceId)
    expect(emails.filter((e) => e.toAddress === writer.email)).toHaveLength(1)
  })

  it('writes nothing when the transaction of the change rolls back', async () => {
    const t = await createTestApp()
    const writer = await member(t, 'Rollo', 'member')
    await expect(
      t.deps.db.transaction(async (tx) => {
        await notify(tx, input(t, { recipients: { userIds: [writer.id] } }))
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    expect(await inbox(t, writer.id)).toHaveLength(0)
  })
})
