import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { posts, targets } from '../../../src/db/schema'
import { account } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const IN_A_DAY = () => new Date(Date.now() + 86_400_000).toISOString()
const IN_TWO_DAYS = () => new Date(Date.now() + 2 * 86_400_000).toISOString()

async function scheduledPost(t: TestApp) {
  const a = await account(t, 'MESSAGING_NET')
  const res = await t.call('POST', '/v1/posts', {
    body: {
      type: 'IMAGE',
      accountIds: [a.id],
      mediaIds: [],
      action: 'schedule',
      scheduledAt: IN_A_DAY(),
      caption: 'first',
      firstComment: null,
    },
  })
  return { post: await res.json(), account: a }
}

const versionOf = async (t: TestApp, id: string) =>
  (await t.deps.db.select({ v: posts.version }).from(posts).where(eq(posts.id, id)))[0]!.v

describe('editing posts', () => {
  it('resets a scheduled post to DRAFT when edited without an action, and bumps its version', async () => {
    const t = await createTestApp()
    const { post } = await scheduledPost(t)
    const before = await versionOf(t, post.id)
    const res = await t.call('PATCH', `/v1/posts/${post.id}`, { body: { caption: 'second' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'DRAFT', caption: 'second', scheduledAt: post.scheduledAt })
    expect(await versionOf(t, post.id)).toBe(before + 1)
  })

  it('applies the edit first, then the action given in the same call', async () => {
    const t = await createTestApp()
    const { post } = await scheduledPost(t)
    const later = IN_TWO_DAYS()
    const res = await t.call('PATCH', `/v1/posts/${post.id}`, {
      body: { caption: 'moved', action: 'schedule', scheduledAt: later },
    })
    expect(await res.json()).toMatchObject({
      status: 'SCHEDULED',
      caption: 'moved',
      scheduledAt: new Date(later).toISOString(),
    })
  })

  it('clears a field with null and keeps the ones not sent', async () => {
    const t = await createTestApp()
    const photo = await account(t, 'PHOTO_NET')
    const created = await (
      await t.call('POST', '/v1/posts', {
        body: {
          type: 'IMAGE',
          accountIds: [photo.id],
          mediaIds: [],
          action: 'draft',
          caption: 'c',
          firstComment: 'first!',
        },
      })
    ).json()
    const res = await (await t.call('PATCH', `/v1/posts/${created.id}`, { body: { firstComment: null } })).json()
    expect(res).toMatchObject({ caption: 'c', firstComment: null })
  })

  it("replaces the targets when accountIds change, keeping the caller's order", async () => {
    const t = await createTestApp()
    const { post, account: first } = await scheduledPost(t)
    const b = await account(t, 'CHAT_NET')
    const c = await account(t, 'FEDERATED_NET')
    const res = await (await t.call('PATCH', `/v1/posts/${post.id}`, { body: { accountIds: [c.id, b.id] } })).json()
    expect(res.accountIds).toEqual([c.id, b.id])
    expect(res.targets.map((x: { platform: string }) => x.platform)).toEqual(['FEDERATED_NET', 'CHAT_NET'])
    expect(res.targets.some((x: { accountId: string }) => x.accountId === first.id)).toBe(false)
  })

  it('refuses to edit or reschedule a published or publishing post with 409', async () => {
    const t = await createTestApp()
    for (const status of ['PUBLISHED', 'PUBLISHING'] as const) {
      const { post } = await scheduledPost(t)
      await t.deps.db.update(posts).set({ status }).where(eq(posts.id, post.id))
      const edit = await t.call('PATCH', `/v1/posts/${post.id}`, { body: { caption: 'too late' } })
      expect(edit.status).toBe(409)
      expect((await edit.json()).error.code).toBe('post_not_editable')
      const move = await t.call('POST', `/v1/posts/${post.id}/schedule`, { body: { scheduledAt: IN_TWO_DAYS() } })
      expect(move.status).toBe(409)
      expect((await (await t.call('GET', `/v1/posts/${post.id}`)).json()).caption).toBe('first')
    }
  })

  it('refuses to edit a failed post one of whose targets went out', async () => {
    const t = await createTestApp()
    const { post } = await scheduledPost(t)
    await t.deps.db.update(posts).set({ status: 'FAILED' }).where(eq(posts.id, post.id))
    await t.deps.db.update(targets).set({ status: 'PUBLISHED' }).where(eq(targets.postId, post.id))
    expect((await t.call('PATCH', `/v1/posts/${post.id}`, { body: { caption: 'x' } })).status).toBe(409)
  })

  it('refuses to edit a failed post whose head post already went out (its thread failed later)', async () => {
    const t = await createTestApp()
    const { post } = await scheduledPost(t)
    await t.deps.db.update(posts).set({ status: 'FAILED' }).where(eq(posts.id, post.id))
    await t.deps.db
      .update(targets)
      .set({ status: 'FAILED', progress: { headId: 'net_1', partIds: [] } })
      .where(eq(targets.postId, post.id))
    const res = await t.call('PATCH', `/v1/posts/${post.id}`, {
      body: { caption: 'again', action: 'schedule', scheduledAt: IN_TWO_DAYS() },
    })
    expect(res.status).toBe(409)
    expect((await res.json()).error.code).toBe('post_not_editable')
  })

  it('moves the time with /schedule and refuses a time in the past', async () => {
    const t = await createTestApp()
    const { post } = await scheduledPost(t)
    const later = IN_TWO_DAYS()
    const res = await t.call('POST', `/v1/posts/${post.id}/schedule`, { body: { scheduledAt: later } })
    expect(await res.json()).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: new Date(later).toISOString(),
      caption: 'first',
    })
    const [target] = await t.deps.db.select().from(targets).where(eq(targets.postId, post.id))
    expect(target!.dueAt!.toISOString()).toBe(new Date(later).toISOString())
    const past = await t.call('POST', `/v1/posts/${post.id}/schedule`, {
      body: { scheduledAt: '2020-01-01T00:00:00Z' },
    })
    expect(past.status).toBe(422)
    expect((await past.json()).error.code).toBe('schedule_time_in_past')
    const missing = await t.call('POST', `/v1/posts/${post.id}/schedule`, { body: {} })
    expect(missing.status).toBe(400)
  })

  it('deletes the post and its targets', async () => {
    const t = await createTestApp()
    const { post } = await scheduledPost(t)
    const res = await t.call('DELETE', `/v1/posts/${post.id}`)
    expect(await res.json()).toEqual({ id: post.id, deleted: true })
    expect((await t.call('GET', `/v1/posts/${post.id}`)).status).toBe(404)
    expect(await t.deps.db.select().from(targets).where(eq(targets.postId, post.id))).toEqual([])
    expect((await t.call('DELETE', `/v1/posts/${post.id}`)).status).toBe(404)
  })
})
