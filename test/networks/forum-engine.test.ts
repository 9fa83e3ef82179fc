/**
 * The forum network's guarantees through the engine against its fake: the network's rate limit
 * (a 429 and a spent X-Ratelimit budget wait for the reported reset, a RATELIMIT error for its
 * minutes), 5xx retried, a lost answer settled by finding the submission among the account's own
 * (exactly one submission either way), token renewal, metrics and delete.
 */
import { describe, expect, it } from 'vitest'
import { runDue } from '../support/engine'
import { CREDS, START, USER_AGENT, getPost, image, post, setup, storedCredentials, targetOf } from './forum-support'

const at = (plusSec: number) => new Date(new Date(START).getTime() + plusSec * 1000).getTime()

describe('FORUM_NET: rate limits and retries', () => {
  it('waits for X-Ratelimit-Reset after a 429, and retries a 5xx', async () => {
    const { t, fake, account, advance } = await setup()
    fake.fault('POST', '/api/submit', {
      kind: 'status',
      status: 429,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '240', 'x-ratelimit-used': '600' },
      json: { message: 'Too Many Requests', error: 429 },
    })
    const a = await post(t, account.id, { title: 'Limited', caption: 'Body' })
    await runDue(t, t.publishQueue)
    const row = await targetOf(t, a.id)
    expect(row.error).toMatchObject({ code: 'rate_limited', message: 'FORUM_NET: Too Many Requests' })
    expect(row.dueAt!.getTime()).toBe(at(240))
    fake.fault('POST', '/api/submit', { kind: 'status', status: 503 })
    advance(240)
    await runDue(t, t.publishQueue)
    expect((await targetOf(t, a.id)).error).toMatchObject({ code: 'transient' })
    advance(600)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, a.id)).targets[0].status).toBe('PUBLISHED')
    expect(fake.visible()).toHaveLength(1)
  })

  it('stops before the next call when the reported budget is spent, until its reset', async () => {
    const { t, fake, account, advance } = await setup()
    const photo = await image(t, [1, 2, 3])
    // One call left: the media lease goes through, the upload's submit would exceed the budget.
    const p = await post(t, account.id, { title: 'Budget', mediaIds: [photo.id] })
    fake.state.budget = 1
    fake.state.resetSec = 90
    await runDue(t, t.publishQueue)
    const row = await targetOf(t, p.id)
    expect(row.error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/budget is spent/) })
    expect(row.dueAt!.getTime()).toBe(at(90))
    expect(fake.calls('POST', '/api/submit')).toHaveLength(0)
    fake.state.budget = 600
    advance(90)
    await runDue(t, t.publishQueue)
    for (const _ of [1, 2]) {
      advance(15)
      await runDue(t, t.publishQueue)
    }
    expect((await getPost(t, p.id)).targets[0].status).toBe('PUBLISHED')
    // The asset uploaded before the pause was not uploaded again.
    expect(fake.calls('POST', '/api/media/asset.json')).toHaveLength(1)
  })

  it('waits the minutes a RATELIMIT error names before submitting again', async () => {
    const { t, fake, account } = await setup()
    fake.state.submitRatelimitSec = 540
    const p = await post(t, account.id, { title: 'Too often', caption: 'Body' })
    await runDue(t, t.publishQueue)
    const row = await targetOf(t, p.id)
    expect(row.error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^FORUM_NET: RATELIMIT: .*9 minutes/),
    })
    expect(row.dueAt!.getTime()).toBe(at(540))
  })
})

describe('FORUM_NET: exactly once', () => {
  it('finds a submission whose answer was lost (connection reset) instead of submitting it again', async () => {
    const { t, fake, account, advance } = await setup()
    fake.fault('POST', '/api/submit', { kind: 'reset' }, { after: true })
    const p = await post(t, account.id, { title: 'Lost answer', caption: 'Body' })
    await runDue(t, t.publishQueue)
    expect((await targetOf(t, p.id)).error).toMatchObject({ code: 'transient' })
    advance(600)
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    expect(fake.visible()).toHaveLength(1)
    expect(target).toMatchObject({ status: 'PUBLISHED', platformPostId: fake.visible()[0]!.name })
    expect(fake.calls('POST', '/api/submit')).toHaveLength(1)
    expect(fake.calls('GET', '/user/corner_bakery/submitted')[0]!.query.get('sort')).toBe('new')
  })

  it('reconciles an unreadable success: found when it landed, submitted once when it did not', async () => {
    const { t, fake, account, advance } = await setup()
    fake.fault('POST', '/api/submit', { kind: 'malformed' }, { after: true })
    const landed = await post(t, account.id, { title: 'Garbled but there', caption: 'Body' })
    await runDue(t, t.publishQueue)
    advance(600)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, landed.id)).targets[0].status).toBe('PUBLISHED')
    expect(fake.calls('POST', '/api/submit')).toHaveLength(1)

    fake.fault('POST', '/api/submit', { kind: 'malformed' }, { after: false })
    const absent = await post(t, account.id, { title: 'Garbled and gone', caption: 'Body' })
    await runDue(t, t.publishQueue)
    advance(600)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, absent.id)).targets[0].status).toBe('PUBLISHED')
    expect(
      fake
        .visible()
        .map((s) => s.title)
        .sort(),
    ).toEqual(['Garbled and gone', 'Garbled but there'])
  })
})

describe('FORUM_NET: tokens, metrics, delete', () => {
  it('renews the hour-long token when due (HTTP Basic, User-Agent), keeping the permanent refresh token', async () => {
    const soon = { ...CREDS, expiresAt: '2026-11-21T10:02:00.000Z' }
    const { t, fake, account } = await setup({ credentials: soon })
    const p = await post(t, account.id, { title: 'Fresh token', caption: 'Body' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    const call = fake.calls('POST', '/api/v1/access_token')[0]!
    expect(call.form().get('grant_type')).toBe('refresh_token')
    expect(call.headers['user-agent']).toBe(USER_AGENT)
    expect((await storedCredentials(t, account.id)).credentials).toEqual({
      ...CREDS,
      accessToken: 'forum_access_2',
      expiresAt: '2026-11-21T11:00:00.000Z',
    })
  })

  it('renews once when a token that was not due is refused; EXPIRED when the refresh token is revoked', async () => {
    const renewed = await setup()
    renewed.fake.expireAccessToken()
    const p = await post(renewed.t, renewed.account.id, { title: 'Revived', caption: 'Body' })
    await runDue(renewed.t, renewed.t.publishQueue)
    expect((await getPost(renewed.t, p.id)).status).toBe('PUBLISHED')
    expect(renewed.fake.state.refreshCount).toBe(1)

    const revoked = await setup()
    revoked.fake.expireAccessToken()
    revoked.fake.state.refreshToken = 'another'
    const q = await post(revoked.t, revoked.account.id, { title: 'Stuck', caption: 'Body' })
    await runDue(revoked.t, revoked.t.publishQueue)
    expect((await getPost(revoked.t, q.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'auth_expired' },
    })
    expect((await storedCredentials(revoked.t, revoked.account.id)).row.status).toBe('EXPIRED')
  })

  it('reads score as likes and comments (views, shares, saves null), and deletes a submission', async () => {
    const { t, fake, account, adapter } = await setup()
    const p = await post(t, account.id, { title: 'Counted', caption: 'Body' })
    await runDue(t, t.publishQueue)
    const id = (await getPost(t, p.id)).targets[0].platformPostId
    Object.assign(fake.visible()[0]!, { score: 42, num_comments: 7 })
    const base = { connection: 'DIRECT_LOGIN', credentials: CREDS, fetch, baseUrl: fake.url, now: new Date(START) }
    const insights = await adapter.fetchInsights!({
      ...base,
      accountId: account.id,
      posts: [{ targetId: 'tp', platformPostId: id, publishedAt: new Date(START) }],
    })
    expect(insights).toEqual({
      followers: null,
      posts: [{ targetId: 'tp', likes: 42, comments: 7, shares: null, views: null, saves: null }],
    })
    expect(fake.calls('GET', '/api/info')[0]!.query.get('id')).toBe(id)
    await adapter.deletePost!({ ...base, platformPostId: id })
    expect(fake.visible()).toHaveLength(0)
    expect(fake.calls('POST', '/api/del')[0]!.form().get('id')).toBe(id)
    await expect(adapter.deletePost!({ ...base, platformPostId: id })).resolves.toBeUndefined()
  })
})
