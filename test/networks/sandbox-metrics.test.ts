import { describe, expect, it } from 'vitest'
import { rulesFor } from '../../src/domain/rules/index'
import type { InsightsInput } from '../../src/networks/adapter'
import { account } from '../support/fixtures'
import { createTestApp } from '../support/test-app'
import { callOf, publishText, sandboxFor, visitor } from './support/sandbox-inbox'

describe('sandbox network: moving metrics', () => {
  it('grows a post’s figures with its age, deterministically, and counts its real comments', async () => {
    const t = await createTestApp()
    const { store, sandbox } = sandboxFor(t)
    const platform = 'MICROBLOG_NET'
    const owner = await account(t, platform, 'mover')
    const id = await publishText(sandbox, owner.id, platform)
    const publishedAt = (await store.get(id))!.createdAt
    const view = sandbox.forPlatform(platform)
    const at = (seconds: number): InsightsInput => ({
      ...callOf(owner.id, new Date(publishedAt.getTime() + seconds * 1000)),
      posts: [{ targetId: 'tgt_1', platformPostId: id, publishedAt }],
    })
    const figures = async (seconds: number) => (await view.fetchInsights!(at(seconds))).posts[0]!

    const early = await figures(5)
    const minute = await figures(60)
    const hour = await figures(3600)
    const days = await figures(3 * 86_400)
    expect(minute.views!).toBeGreaterThan(early.views!)
    expect(hour.views!).toBeGreaterThan(minute.views!)
    expect(days.views!).toBeGreaterThan(hour.views!)
    expect(await figures(60)).toEqual(minute)
    expect(await figures(4 * 86_400)).toEqual(days)
    expect(minute.comments).toBe(0)

    const reported = rulesFor(platform).insights.postMetrics
    for (const metric of ['clicks', 'impressions', 'reach'] as const)
      expect(hour[metric] === null).toBe(!reported.includes(metric))

    const kept = await store.comments.add(visitor({ id, accountId: owner.id }, 'one', 1))
    await store.comments.add(visitor({ id, accountId: owner.id }, 'two', 2, { replyToId: kept.id }))
    const gone = await store.comments.add(visitor({ id, accountId: owner.id }, 'three', 3))
    await store.comments.markDeleted(gone.id, new Date())
    expect((await figures(60)).comments).toBe(reported.includes('comments') ? 2 : null)
    // The adapter without a platform view reads the platform from its posts: the same figures.
    expect((await sandbox.fetchInsights!(at(60))).posts[0]).toEqual(await figures(60))
  })
})
