import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { posts, targets } from '../../../src/db/schema'
import { writeHistory } from '../../support/analytics-history'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

const T0 = '2026-03-10T10:00:00.000Z'

describe('external posts (imported from a network) are read-only', () => {
  it('are listed with source external, filtered by source, and every write refuses them with 409 in words', async () => {
    const t = await createTestApp({ clock: fixedClock(T0) })
    const photo = await account(t, 'PHOTO_NET')
    const [externalTarget, ownTarget] = await writeHistory(t, [
      { account: photo, publishedAt: '2026-03-09T10:00:00Z', source: 'external', caption: 'made on the network' },
      { account: photo, publishedAt: '2026-03-08T10:00:00Z' },
    ])
    const [found] = await t.deps.db.select({ id: targets.postId }).from(targets).where(eq(targets.id, externalTarget!))
    const id = found!.id
    // A failed target, so that retry would have something to do were the post not external.
    await t.deps.db.update(targets).set({ status: 'FAILED' }).where(eq(targets.id, externalTarget!))

    const external = await (await t.call('GET', '/v1/posts?source=external')).json()
    expect(external.map((p: any) => p.id)).toEqual([id])
    expect(external[0].source).toBe('external')
    const own = await (await t.call('GET', '/v1/posts?source=service')).json()
    expect(own.map((p: any) => p.targets[0].id)).toEqual([ownTarget])
    expect(own[0].source).toBe('service')
    expect((await t.call('GET', '/v1/posts?source=elsewhere')).status).toBe(400)
    expect((await (await t.call('GET', `/v1/posts/${id}`)).json()).source).toBe('external')

    const writes: Array<[string, string, unknown?]> = [
      ['PATCH', `/v1/posts/${id}`, { caption: 'changed' }],
      ['POST', `/v1/posts/${id}/schedule`, { scheduledAt: '2026-04-01T09:00:00Z' }],
      ['PATCH', `/v1/posts/${id}`, { action: 'queue' }],
      ['POST', `/v1/posts/${id}/publish`],
      ['POST', `/v1/posts/${id}/retry`],
      ['DELETE', `/v1/posts/${id}`],
      ['DELETE', `/v1/posts/${id}?fromNetworks=true`],
    ]
    for (const [method, path, body] of writes) {
      const res = await t.call(method, path, body === undefined ? {} : { body })
      expect(res.status, `${method} ${path}`).toBe(409)
      const { error } = await res.json()
      expect(error.code).toBe('post_not_editable')
      expect(error.message).toContain('imported from it (source: external): it is read-only here')
    }
    const [row] = await t.deps.db.select().from(posts).where(eq(posts.id, id))
    expect(row).toMatchObject({ caption: 'made on the network', status: 'PUBLISHED', version: 1 })
  })
})
