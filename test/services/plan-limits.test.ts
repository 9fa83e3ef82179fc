import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { posts } from '../../src/db/schema'
import { account } from '../support/fixtures'
import { createTestApp } from '../support/test-app'

describe('plan limits', () => {
  it('refuses the 31st post of the month on the free plan with 403, and /me counts the same', async () => {
    const t = await createTestApp({ plan: 'free' })
    const a = await account(t, 'MESSAGING_NET')
    const body = { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'draft', caption: 'x' }
    for (let i = 0; i < 29; i++) expect((await t.call('POST', '/v1/posts', { body })).status).toBe(200)
    const results = await Promise.all([
      t.call('POST', '/v1/posts', { body }),
      t.call('POST', '/v1/posts', { body }),
      t.call('POST', '/v1/posts', { body }),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403])
    const refused = await results.find((r) => r.status === 403)!.json()
    expect(refused.error).toMatchObject({ code: 'plan_limit_reached', details: [{ path: 'monthlyPosts', limit: 30 }] })
    expect((await (await t.call('GET', '/v1/me')).json()).usage.postsThisMonth).toBe(30)
    // A post of last month does not count.
    const [old] = await t.deps.db
      .select({ id: posts.id })
      .from(posts)
      .where(eq(posts.workspaceId, t.workspaceId))
      .limit(1)
    await t.deps.db
      .update(posts)
      .set({ createdAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(eq(posts.id, old!.id))
    expect((await t.call('POST', '/v1/posts', { body })).status).toBe(200)
  })

  it('lets the agency plan post without a monthly cap', async () => {
    const t = await createTestApp({ plan: 'agency' })
    const a = await account(t, 'MESSAGING_NET')
    const statuses = await Promise.all(
      Array.from({ length: 35 }, () =>
        t
          .call('POST', '/v1/posts', {
            body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'draft', caption: 'x' },
          })
          .then((r) => r.status),
      ),
    )
    expect(statuses.every((s) => s === 200)).toBe(true)
  })
})
