import { describe, expect, it } from 'vitest'
import { notify } from '../../../src/services/notifications/notify'
import { memberWithToken } from '../../support/people'
import { createTestApp, type TestApp } from '../../support/test-app'

async function tell(t: TestApp, userId: string, title: string, at: Date) {
  await t.deps.db.transaction((tx) =>
    notify(tx, {
      workspaceId: t.workspaceId,
      kind: 'target_failed',
      recipients: { userIds: [userId] },
      title,
      body: 'It failed.',
      link: `/app/w/${t.workspaceId}/posts/post_1`,
      subject: { type: 'post', id: 'post_1' },
      now: at,
    }),
  )
}

describe('the notifications API', () => {
  it('lists newest first by cursor, counts unread, marks one and all read', async () => {
    const t = await createTestApp()
    const me = await memberWithToken(t, 'member', 'Mia')
    const base = Date.now() - 60_000
    for (let i = 1; i <= 3; i++) await tell(t, me.id, `Failure ${i}`, new Date(base + i * 1000))
    const call = (method: string, path: string) => t.call(method, path, { token: me.token })

    const first = await (await call('GET', '/v1/notifications?limit=2')).json()
    expect(first.data.map((n: { title: string }) => n.title)).toEqual(['Failure 3', 'Failure 2'])
    expect(first.nextCursor).toBe(first.data[1].id)
    const second = await (await call('GET', `/v1/notifications?limit=2&cursor=${first.nextCursor}`)).json()
    expect(second).toMatchObject({ data: [{ title: 'Failure 1', read: false }], nextCursor: null })
    expect(await (await call('GET', '/v1/notifications/unread-count')).json()).toEqual({ unread: 3 })

    const read = await (await call('POST', `/v1/notifications/${first.data[0].id}/read`)).json()
    expect(read).toMatchObject({ id: first.data[0].id, read: true })
    expect(await (await call('GET', '/v1/notifications/unread-count')).json()).toEqual({ unread: 2 })
    const unread = await (await call('GET', '/v1/notifications?unread=true')).json()
    expect(unread.data.map((n: { title: string }) => n.title)).toEqual(['Failure 2', 'Failure 1'])

    expect(await (await call('POST', '/v1/notifications/read-all')).json()).toEqual({ updated: 2 })
    expect(await (await call('GET', '/v1/notifications/unread-count')).json()).toEqual({ unread: 0 })

    // Someone else's notification is not found.
    const other = await memberWithToken(t, 'member', 'Otto')
    expect((await t.call('POST', `/v1/notifications/${first.data[0].id}/read`, { token: other.token })).status).toBe(
      404,
    )
  })

  it('refuses a token that belongs to no user, in words (403)', async () => {
    const t = await createTestApp()
    for (const [method, path] of [
      ['GET', '/v1/notifications'],
      ['GET', '/v1/notifications/unread-count'],
      ['POST', '/v1/notifications/read-all'],
      ['GET', '/v1/notification-preferences'],
    ] as const) {
      const res = await t.call(method, path)
      expect(res.status, path).toBe(403)
      const body = await res.json()
      expect(body.error.code).toBe('forbidden')
      expect(body.error.message).toMatch(/created by no user/)
    }
  })

  it('keeps each user’s channels per kind; a channel left out keeps its value', async () => {
    const t = await createTestApp()
    const me = await memberWithToken(t, 'reviewer', 'Rita')
    const get = async () =>
      (await (await t.call('GET', '/v1/notification-preferences', { token: me.token })).json()).preferences
    const defaults = await get()
    expect(defaults).toHaveLength(7)
    expect(defaults.every((p: { inApp: boolean; email: boolean }) => p.inApp && p.email)).toBe(true)
    const res = await t.call('PUT', '/v1/notification-preferences', {
      token: me.token,
      body: {
        preferences: [
          { kind: 'mentioned', email: false },
          { kind: 'target_failed', inApp: false },
        ],
      },
    })
    expect(res.status).toBe(200)
    const after = await get()
    expect(after.find((p: { kind: string }) => p.kind === 'mentioned')).toMatchObject({ inApp: true, email: false })
    expect(after.find((p: { kind: string }) => p.kind === 'target_failed')).toMatchObject({ inApp: false, email: true })
    const bad = await t.call('PUT', '/v1/notification-preferences', {
      token: me.token,
      body: { preferences: [{ kind: 'nonsense' }] },
    })
    expect(bad.status).toBe(400)
  })
})
