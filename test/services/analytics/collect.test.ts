import { describe, expect, it } from 'vitest'
import { collectAnalytics } from '../../../src/services/analytics/collect'
import { startFederatedFake } from '../../fakes/federated'
import { runDue } from '../../support/engine'
import { fixedClock, realAccount } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

/**
 * The analytics pass over a real adapter: what the network reports reaches GET /v1/analytics, and
 * what it does not report stays null (never 0).
 */
describe('analytics collection through a real network adapter', () => {
  it('stores the followers and post figures the federated network reports, views and saves as null', async () => {
    const clock = fixedClock('2026-11-21T10:00:00Z')
    const fake = await startFederatedFake({ now: clock.now })
    const t = await createTestApp({ clock })
    const acct = await realAccount(
      t,
      'FEDERATED_NET',
      'DIRECT_LOGIN',
      { instanceUrl: fake.url, accessToken: fake.token },
      '109876',
    )
    const created = await (
      await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], accountIds: [acct.id], action: 'now', caption: 'Counting' },
      })
    ).json()
    await runDue(t, t.publishQueue)
    const post = await (await t.call('GET', `/v1/posts/${created.id}`)).json()
    expect(post.status).toBe('PUBLISHED')

    const status = fake.state.statuses[0]!
    Object.assign(status, { favourites_count: 7, replies_count: 2, reblogs_count: 3 })
    clock.set('2026-11-21T11:30:00Z')
    expect(await collectAnalytics(t.deps, { workspaceId: t.workspaceId, now: clock.now() })).toEqual({
      accounts: 1,
      followerSnapshots: 1,
      targetSnapshots: 1,
      failedAccounts: 0,
    })

    const body = await (await t.call('GET', '/v1/analytics')).json()
    expect(body.accounts[0]).toMatchObject({
      accountId: acct.id,
      followers: { value: 17, collectedAt: '2026-11-21T11:30:00.000Z' },
    })
    const figures = body.recentPosts.find((r: any) => r.targetId === post.targets[0].id)
    expect(figures.metrics).toEqual({
      likes: 7,
      comments: 2,
      shares: 3,
      views: null,
      saves: null,
      clicks: null,
      impressions: null,
      reach: null,
    })
  })

  it('skips an account whose token the network refuses, and says so in the report', async () => {
    const clock = fixedClock('2026-11-21T10:00:00Z')
    const fake = await startFederatedFake({ now: clock.now })
    const t = await createTestApp({ clock })
    await realAccount(t, 'FEDERATED_NET', 'DIRECT_LOGIN', { instanceUrl: fake.url, accessToken: fake.token }, '109876')
    fake.revokeTokens()
    expect(await collectAnalytics(t.deps, { workspaceId: t.workspaceId, now: clock.now() })).toMatchObject({
      accounts: 1,
      followerSnapshots: 0,
      failedAccounts: 1,
    })
  })
})
