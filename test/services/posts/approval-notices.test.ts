/**
 * What each approval step leaves, through the services with callers of real members: the
 * notifications (review requested to the reviewers and managers, the decision to the submitter),
 * the activity entries and the webhook events, all written with the step.
 */
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { selectNotifications } from '../../../src/db/queries/notifications'
import { randomBase62 } from '../../../src/lib/ids'
import type { Caller } from '../../../src/services/caller'
import { addMember } from '../../../src/services/people/memberships'
import { approvePost, requestPostChanges, submitPost } from '../../../src/services/posts/approval'
import { createUser } from '../../../src/services/people/users'
import { account } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

async function member(t: TestApp, name: string, role: 'owner' | 'admin' | 'member' | 'reviewer'): Promise<Caller> {
  const user = await createUser(t.deps, {
    email: `a-${randomBase62(8)}@example.com`,
    name,
    password: 'a long enough password 7',
  })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, role))
  return {
    workspaceId: t.workspaceId,
    access: { role, groupIds: null },
    actor: { kind: 'user', id: user.id, name },
    userId: user.id,
    ip: '192.0.2.7',
  }
}

const kinds = async (t: TestApp, caller: Caller) =>
  (
    await selectNotifications(t.deps.db, {
      userId: caller.userId!,
      workspaceId: t.workspaceId,
      unreadOnly: false,
      after: null,
      limit: 50,
    })
  ).map((n) => n.kind)

describe('approval notices', () => {
  it('tells reviewers and managers of a submit, and the submitter of each decision', async () => {
    const t = await createTestApp()
    const writer = await member(t, 'Wanda', 'member')
    const reviewer = await member(t, 'Rita', 'reviewer')
    const owner = await member(t, 'Olga', 'owner')
    const a = await account(t, 'MESSAGING_NET')
    const post = await (
      await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'draft', caption: 'Spring sale' },
      })
    ).json()

    await submitPost(t.deps, writer, post.id, { note: 'Client wants it Monday' })
    expect(await kinds(t, reviewer)).toEqual(['review_requested'])
    expect(await kinds(t, owner)).toEqual(['review_requested'])
    expect(await kinds(t, writer)).toEqual([])

    await requestPostChanges(t.deps, reviewer, post.id, { comment: 'Add the price' })
    expect(await kinds(t, writer)).toEqual(['changes_requested'])

    await t.call('PATCH', `/v1/posts/${post.id}`, { body: { caption: 'Spring sale: 20% off' } })
    await submitPost(t.deps, writer, post.id, {})
    const approved = await approvePost(t.deps, reviewer, post.id, { comment: 'Lovely' })
    expect(approved.approval).toMatchObject({
      state: 'APPROVED',
      submittedBy: { kind: 'user', name: 'Wanda' },
      decidedBy: { kind: 'user', name: 'Rita' },
      comment: 'Lovely',
    })
    expect((await kinds(t, writer)).sort()).toEqual(['changes_requested', 'post_approved'])

    const activity = await t.deps.db.execute(
      sql`select action, summary, ip from activity_log where workspace_id = ${t.workspaceId} and subject_id = ${post.id} order by at, id`,
    )
    const rows = (activity as unknown as { rows: Array<{ action: string; summary: string; ip: string }> }).rows
    expect(
      rows
        .filter((r) => r.action.startsWith('post.') && r.action !== 'post.created' && r.action !== 'post.updated')
        .map((r) => r.action),
    ).toEqual(['post.submitted', 'post.changes_requested', 'post.submitted', 'post.approved'])
    expect(rows.find((r) => r.action === 'post.changes_requested')).toMatchObject({
      summary: 'Rita requested changes to the post: Add the price',
      ip: '192.0.2.7',
    })
  })
})
