/**
 * The local business network's reviews through its loopback fake: the location's reviews page by
 * page with its average rating, an anonymous reviewer kept anonymous, the owner's reply sent and
 * replaced, and refusals (a reply too long, a review of another location, an unverified location,
 * an expired token) in the network's words. Not on a route yet: the inbox will call these.
 */
import { describe, expect, it } from 'vitest'
import { listReviews, replyToReview } from '../../src/networks/adapters/local/reviews'
import { startLocalFake } from '../fakes/local'
import { CREDS, START } from './local-support'

async function setup() {
  const fake = await startLocalFake()
  const ratings = ['FIVE', 'FOUR', 'ONE']
  for (let i = 0; i < 53; i++)
    fake.state.reviews.push({
      reviewId: `r${i}`,
      locationId: '9001',
      starRating: ratings[i % 3]!,
      comment: `Review ${i}`,
      reviewer: i === 1 ? null : `Guest ${i}`,
      reply: i === 0 ? { comment: 'Thank you!', updateTime: '2026-11-02T10:00:00Z' } : null,
    })
  const input = { connection: 'DIRECT_LOGIN', credentials: CREDS, fetch, baseUrl: fake.url, now: new Date(START) }
  return { fake, input }
}

describe('LOCAL_NET reviews', () => {
  it('lists the reviews 50 a page with the average rating, following the page token', async () => {
    const { fake, input } = await setup()
    const first = await listReviews(input)
    expect(first.reviews).toHaveLength(50)
    expect(first.totalReviewCount).toBe(53)
    expect(first.averageRating).toBeCloseTo((18 * 5 + 18 * 4 + 17 * 1) / 53)
    expect(first.reviews[0]).toEqual({
      name: 'accounts/101/locations/9001/reviews/r0',
      reviewId: 'r0',
      reviewer: 'Guest 0',
      stars: 5,
      comment: 'Review 0',
      createdAt: '2026-11-01T09:00:00Z',
      updatedAt: '2026-11-01T09:00:00Z',
      reply: { comment: 'Thank you!', updatedAt: '2026-11-02T10:00:00Z' },
    })
    expect(first.reviews[1]).toMatchObject({ reviewer: null, stars: 4, reply: null })
    const second = await listReviews({ ...input, pageToken: first.nextPageToken, orderBy: 'rating desc' })
    expect(second.reviews.map((r) => r.reviewId)).toEqual(['r50', 'r51', 'r52'])
    expect(second.nextPageToken).toBeNull()
    const asked = fake.calls('GET', '/v4/accounts/101/locations/9001/reviews')
    expect(asked.map((r) => [r.query.get('pageSize'), r.query.get('orderBy'), r.query.get('pageToken')])).toEqual([
      ['50', 'updateTime desc', null],
      ['50', 'rating desc', '50'],
    ])
  })

  it("answers a review, replacing the owner's earlier reply", async () => {
    const { fake, input } = await setup()
    const reviewName = 'accounts/101/locations/9001/reviews/r0'
    const reply = await replyToReview({ ...input, reviewName, comment: '  Thanks again, see you soon!  ' })
    expect(reply).toEqual({ comment: 'Thanks again, see you soon!', updatedAt: expect.any(String) })
    const call = fake.calls('PUT', `/v4/${reviewName}/reply`)[0]!
    expect(call.json()).toEqual({ comment: 'Thanks again, see you soon!' })
    expect(call.headers.authorization).toBe('Bearer gbp_access_1')
    expect(fake.state.reviews[0]!.reply!.comment).toBe('Thanks again, see you soon!')
  })

  it('refuses before any call a reply over 4,096 bytes, an empty one, or one to another location', async () => {
    const { fake, input } = await setup()
    const reviewName = 'accounts/101/locations/9001/reviews/r3'
    await expect(replyToReview({ ...input, reviewName, comment: 'é'.repeat(2049) })).rejects.toMatchObject({
      kind: 'rejected',
      message: 'LOCAL_NET: a reply takes at most 4096 bytes (this one has 4098).',
    })
    await expect(replyToReview({ ...input, reviewName, comment: '   ' })).rejects.toMatchObject({ kind: 'rejected' })
    await expect(
      replyToReview({ ...input, reviewName: 'accounts/101/locations/9002/reviews/r3', comment: 'Hi' }),
    ).rejects.toThrow(/is not a review of accounts\/101\/locations\/9001/)
    expect(fake.calls('PUT', /reply$/)).toHaveLength(0)
    await expect(replyToReview({ ...input, reviewName, comment: 'é'.repeat(2048) })).resolves.toBeTruthy()
  })

  it("classifies the network's refusals: an unverified location, an expired token, a quota", async () => {
    const { fake, input } = await setup()
    const unverified = {
      ...input,
      credentials: { ...CREDS, accountName: 'accounts/202', locationName: 'accounts/202/locations/9003' },
    }
    await expect(listReviews(unverified)).rejects.toMatchObject({
      kind: 'rejected',
      message: 'LOCAL_NET: Location is not verified.',
    })
    fake.failNextError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.')
    await expect(listReviews(input)).rejects.toMatchObject({ kind: 'rate_limited', retryAfterSec: 60 })
    fake.expireAccessToken()
    await expect(listReviews(input)).rejects.toMatchObject({
      kind: 'auth_expired',
      message: 'LOCAL_NET: Request had invalid authentication credentials. (reconnect the account)',
    })
  })
})
