import { describe, expect, it } from 'vitest'
import { collectAnalytics } from '../../../src/services/analytics/collect'
import { writeHistory } from '../../support/analytics-history'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const T0 = '2026-03-10T10:00:00.000Z'
const HOUR = 3_600_000
const ago = (hours: number) => new Date(Date.parse(T0) - hours * HOUR)

/** The post holding the target. */
async function postOf(t: TestApp, targetId: string) {
  const list = (await (await t.call('GET', '/v1/posts')).json()) as any[]
  return list.find((p) => p.targets.some((x: any) => x.id === targetId))
}

describe('GET /v1/posts/{id}/analytics', () => {
  it("gives each target's latest figures, null where the network does not report them, the engagement rate and the timeline", async () => {
    const clock = fixedClock(T0)
    const t = await createTestApp({ clock })
    const photo = await account(t, 'PHOTO_NET')
    const [target] = await writeHistory(t, [
      {
        account: photo,
        publishedAt: ago(30),
        snapshots: [
          { at: ago(29), figures: { likes: 10, comments: 2, shares: 1, saves: 1, views: 200, clicks: 99 } },
          { at: ago(5), figures: { likes: 30, comments: 6, shares: 2, saves: 2, views: 400, reach: 7 } },
        ],
      },
    ])
    const post = await postOf(t, target!)
    const res = await t.call('GET', `/v1/posts/${post.id}/analytics`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ postId: post.id, source: 'service', generatedAt: T0 })
    expect(body.targets).toHaveLength(1)
    const tg = body.targets[0]
    expect(tg).toMatchObject({
      targetId: target,
      accountId: photo.id,
      platform: 'PHOTO_NET',
      status: 'PUBLISHED',
      collectedAt: ago(5).toISOString(),
      engagement: 40,
      // engagement / views: the network reports no impressions.
      engagementRate: 0.1,
      engagementRateBasis: 'views',
    })
    expect(tg.reported).toEqual(['likes', 'comments', 'shares', 'views', 'saves', 'reach'])
    // Stored figures the network does not report are null, never shown.
    expect(tg.metrics).toEqual({
      likes: 30,
      comments: 6,
      shares: 2,
      views: 400,
      saves: 2,
      clicks: null,
      impressions: null,
      reach: 7,
    })
    expect(tg.timeline.map((p: any) => p.collectedAt)).toEqual([ago(29).toISOString(), ago(5).toISOString()])
    expect(tg.timeline[0]).toMatchObject({ engagement: 14, metrics: { likes: 10, clicks: null } })
    // Hourly in the first day, then daily: the next reading is a day after the last.
    expect(tg.nextCollectionAt).toBe(new Date(ago(5).getTime() + 24 * HOUR).toISOString())
  })

  it('is null before the first collection and for a network that reports nothing, then follows the collection pass', async () => {
    const clock = fixedClock(T0)
    const t = await createTestApp({ clock })
    const chat = await account(t, 'CHAT_NET')
    const photo = await account(t, 'PHOTO_NET')
    const [chatTarget, photoTarget] = await writeHistory(t, [
      { account: chat, publishedAt: ago(2) },
      { account: photo, publishedAt: ago(2) },
    ])
    const chatPost = await postOf(t, chatTarget!)
    const photoPost = await postOf(t, photoTarget!)
    const before = await (await t.call('GET', `/v1/posts/${photoPost.id}/analytics`)).json()
    expect(before.targets[0]).toMatchObject({ collectedAt: null, engagement: null, engagementRate: null, timeline: [] })
    expect(Object.values(before.targets[0].metrics).every((v) => v === null)).toBe(true)

    await collectAnalytics(t.deps, { workspaceId: t.workspaceId, now: clock.now() })
    const after = await (await t.call('GET', `/v1/posts/${photoPost.id}/analytics`)).json()
    expect(after.targets[0].timeline).toHaveLength(1)
    expect(after.targets[0].metrics.likes).toBeGreaterThan(0)
    const chatAnswer = await (await t.call('GET', `/v1/posts/${chatPost.id}/analytics`)).json()
    expect(chatAnswer.targets[0]).toMatchObject({ reported: [], engagement: null, nextCollectionAt: null })
    expect(Object.values(chatAnswer.targets[0].metrics).every((v) => v === null)).toBe(true)
  })

  it("answers 404 for another workspace's post, as for an id never issued", async () => {
    const other = await createTestApp()
    const elsewhere = await account(other, 'PHOTO_NET')
    await writeHistory(other, [{ account: elsewhere, publishedAt: ago(3) }])
    const theirs = (await (await other.call('GET', '/v1/posts')).json())[0]
    const t = await createTestApp()
    const res = await t.call('GET', `/v1/posts/${theirs.id}/analytics`)
    expect(res.status).toBe(404)
    const body = await res.json()
    expect(body.error.code).toBe('not_found')
    const never = await (await t.call('GET', '/v1/posts/post_never_issued/analytics')).json()
    expect(never.error.message).toBe(body.error.message)
  })
})
