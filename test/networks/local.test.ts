/**
 * The local business network (Google Business Profile) through its loopback fake: the location
 * the credentials name, every post type it takes (an update with a photo and a button, an event,
 * an offer, an alert, a call button), and a refusal for each limit, at create where the rules
 * registry says it and at publish where the options depend on each other.
 */
import { describe, expect, it } from 'vitest'
import { connectAccount } from '../../src/services/accounts/connection'
import { runDue } from '../support/engine'
import { storedMedia } from '../support/fixtures'
import { mp4 } from '../support/media'
import { CREDS, createLocalPost, getPost, localPost, photo, setupLocal } from './local-support'

const POSTS = /^POST \/v4\/accounts\/101\/locations\/9001\/localPosts$/
const sent = (fake: Awaited<ReturnType<typeof setupLocal>>['fake']) =>
  fake.calls('POST', '/v4/accounts/101/locations/9001/localPosts').map((r) => r.json())

describe('LOCAL_NET adapter (Business Profile APIs)', () => {
  it('confirms the location the credentials name, and refuses one the sign-in does not manage', async () => {
    const { t, fake } = await setupLocal()
    const add = (credentials: Record<string, unknown>) =>
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'LOCAL_NET',
        connection: 'DIRECT_LOGIN',
        credentials,
      })
    expect(await add(CREDS)).toMatchObject({ username: 'Corner Bakery (Springfield)', platform: 'LOCAL_NET' })
    const read = fake.calls('GET', '/v1/locations/9001')[0]!
    expect(read.headers.authorization).toBe('Bearer gbp_access_1')
    expect(read.query.get('readMask')).toBe('name,title,storefrontAddress')
    await expect(add({ ...CREDS, locationName: 'accounts/101/locations/7777' })).rejects.toThrow(
      /did not confirm.*Requested entity was not found/,
    )
    await expect(add({ ...CREDS, locationName: 'accounts/202/locations/9003' })).rejects.toThrow(
      /not under accounts\/101/,
    )
  })

  it('publishes an update with a photo the network fetches and a LEARN_MORE button, linked to its search page', async () => {
    const { t, fake, account } = await setupLocal()
    const image = await photo(t)
    const p = await localPost(
      t,
      account.id,
      { caption: 'Fresh sourdough every morning.', mediaIds: [image.id] },
      { callToAction: 'LEARN_MORE', callToActionUrl: 'https://bakery.example/sourdough' },
    )
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({ status: 'PUBLISHED', platformPostId: 'accounts/101/locations/9001/localPosts/701' })
    expect(target.permalink).toBe('https://local.google.com/place?use=posts&lpsid=701')
    const [body] = sent(fake)
    expect(body).toEqual({
      summary: 'Fresh sourdough every morning.',
      topicType: 'STANDARD',
      callToAction: { actionType: 'LEARN_MORE', url: 'https://bakery.example/sourdough' },
      media: [{ mediaFormat: 'PHOTO', sourceUrl: expect.stringMatching(/^http/) }],
    })
    const made = fake.state.posts.get(target.platformPostId)!
    expect(Buffer.compare(made.photo!, Buffer.from(image.bytes))).toBe(0)
  })

  it('publishes an event and an offer with their schedule in the local time written, an alert, and a CALL button', async () => {
    const { t, fake, account } = await setupLocal()
    const event = {
      topicType: 'EVENT',
      eventTitle: 'Christmas market',
      eventStart: '2026-12-24T10:00:00+01:00',
      eventEnd: '2026-12-24T18:30:00+01:00',
      callToAction: 'SIGN_UP',
      callToActionUrl: 'https://bakery.example/market',
    }
    const offer = {
      topicType: 'OFFER',
      eventTitle: 'Two for one',
      eventStart: '2026-12-01T08:00:00Z',
      eventEnd: '2026-12-07T20:00:00Z',
      offerCouponCode: 'BREAD2',
      offerRedeemUrl: 'https://bakery.example/redeem',
      offerTerms: 'One per customer.',
    }
    await localPost(t, account.id, { caption: 'Come by the stall.' }, event)
    await localPost(t, account.id, { caption: 'Loaves at half price.' }, offer)
    await localPost(t, account.id, { caption: 'Closed today for cleaning.' }, { topicType: 'ALERT' })
    await localPost(t, account.id, { caption: 'Order a cake by phone.' }, { callToAction: 'CALL' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published', 'published', 'published', 'published'])
    const [e, o, a, c] = sent(fake)
    expect(e).toEqual({
      summary: 'Come by the stall.',
      topicType: 'EVENT',
      callToAction: { actionType: 'SIGN_UP', url: 'https://bakery.example/market' },
      event: {
        title: 'Christmas market',
        schedule: {
          startDate: { year: 2026, month: 12, day: 24 },
          startTime: { hours: 10, minutes: 0, seconds: 0, nanos: 0 },
          endDate: { year: 2026, month: 12, day: 24 },
          endTime: { hours: 18, minutes: 30, seconds: 0, nanos: 0 },
        },
      },
    })
    expect(o).toMatchObject({
      topicType: 'OFFER',
      event: { title: 'Two for one', schedule: { startDate: { day: 1 }, endDate: { day: 7 } } },
      offer: {
        couponCode: 'BREAD2',
        redeemOnlineUrl: 'https://bakery.example/redeem',
        termsConditions: 'One per customer.',
      },
    })
    expect(o!.callToAction).toBeUndefined()
    expect(a).toEqual({ summary: 'Closed today for cleaning.', topicType: 'ALERT', alertType: 'COVID_19' })
    expect(c).toEqual({
      summary: 'Order a cake by phone.',
      topicType: 'STANDARD',
      callToAction: { actionType: 'CALL' },
    })
  })

  it('refuses at create what the registry says: a long caption, two photos, a video, a small photo, a GIF', async () => {
    const { t, account } = await setupLocal()
    const [one, two] = [await photo(t), await photo(t, [9, 9, 9])]
    const video = await storedMedia(t, {
      bytes: mp4({ durationSec: 5, width: 640, height: 480 }),
      mimeType: 'video/mp4',
      width: 640,
      height: 480,
      durationSec: 5,
    })
    const codeOf = async (body: Record<string, unknown>) => {
      const res = await createLocalPost(t, account.id, body)
      expect(res.status).toBe(422)
      return (await res.json()).error
    }
    const small = await storedMedia(t, {
      bytes: (await photo(t)).bytes,
      mimeType: 'image/jpeg',
      width: 200,
      height: 200,
    })
    const gif = await storedMedia(t, { bytes: (await photo(t)).bytes, mimeType: 'image/gif', width: 800, height: 600 })
    expect(await codeOf({ caption: 'x'.repeat(1501) })).toMatchObject({
      code: 'caption_too_long',
      details: [{ limit: 1500, actual: 1501 }],
    })
    const media = async (ids: string[]) => (await codeOf({ caption: 'Media', mediaIds: ids })).message
    expect(await media([one.id, two.id])).toMatch(/2 media items; LOCAL_NET allows 1/)
    expect(await media([video])).toMatch(/LOCAL_NET takes no videos/)
    expect(await media([small])).toMatch(/width is 200 px; LOCAL_NET needs at least 250 px/)
    expect(await media([gif])).toMatch(/image\/gif is not accepted by LOCAL_NET; use image\/jpeg or image\/png/)
  })

  it('refuses at create an option outside its field: an unknown topic, a link that is no URL, an unknown key', async () => {
    const { t, account } = await setupLocal()
    const codeOf = async (options: Record<string, unknown>) => {
      const res = await createLocalPost(t, account.id, { caption: 'Nope' }, options)
      expect(res.status).toBe(422)
      return (await res.json()).error
    }
    expect(await codeOf({ topicType: 'PRODUCT' })).toMatchObject({
      code: 'invalid_option',
      details: [expect.objectContaining({ path: `targetOptions.${account.id}.topicType` })],
    })
    expect(await codeOf({ callToActionUrl: 'not a url' })).toMatchObject({
      code: 'invalid_option',
    })
    expect(await codeOf({ colour: 'red' })).toMatchObject({ code: 'invalid_option' })
  })

  it('refuses at publish options that do not fit together, in words, without calling the network', async () => {
    const { t, fake, account } = await setupLocal()
    const image = await photo(t)
    const cases: Array<[Record<string, unknown>, Record<string, unknown>, RegExp]> = [
      [
        { caption: 'Party' },
        { topicType: 'EVENT', eventTitle: 'Party' },
        /EVENT post needs eventTitle, eventStart and eventEnd \(missing: eventStart, eventEnd\)/,
      ],
      [
        { caption: 'Backwards' },
        { topicType: 'EVENT', eventTitle: 'B', eventStart: '2026-12-02T10:00:00Z', eventEnd: '2026-12-01T10:00:00Z' },
        /eventEnd is before eventStart/,
      ],
      [{ caption: 'Book' }, { callToAction: 'BOOK' }, /BOOK button needs callToActionUrl/],
      [
        { caption: 'Call' },
        { callToAction: 'CALL', callToActionUrl: 'https://bakery.example' },
        /CALL button dials the business phone/,
      ],
      [{ caption: 'Coupon' }, { offerCouponCode: 'X1' }, /offerCouponCode: only OFFER posts carry an offer/],
      [
        { caption: 'Alert', mediaIds: [image.id] },
        { topicType: 'ALERT' },
        /ALERT post carries text and a button only: no photo/,
      ],
      [
        { caption: 'Offer' },
        {
          topicType: 'OFFER',
          eventTitle: 'O',
          eventStart: '2026-12-01T10:00:00Z',
          eventEnd: '2026-12-02T10:00:00Z',
          callToAction: 'SHOP',
          callToActionUrl: 'https://bakery.example',
        },
        /OFFER post has no button/,
      ],
    ]
    const ids = []
    for (const [body, options] of cases) ids.push((await localPost(t, account.id, body, options)).id)
    await runDue(t, t.publishQueue)
    for (const [i, id] of ids.entries()) {
      const target = (await getPost(t, id)).targets[0]
      expect(target, String(cases[i]![2])).toMatchObject({ status: 'FAILED', error: { code: 'rejected' } })
      expect(target.error.message).toMatch(/^LOCAL_NET: /)
      expect(target.error.message).toMatch(cases[i]![2])
    }
    expect(fake.calls('POST', POSTS)).toHaveLength(0)
  })

  it("answers the network's own refusal in its words, with the field it names", async () => {
    const { t, fake, account } = await setupLocal()
    // A photo URL the network cannot fetch: the fake refuses it as the network does.
    const gone = await photo(t)
    const p = await localPost(t, account.id, { caption: 'Lost photo', mediaIds: [gone.id] })
    fake.state.failures.push({
      path: POSTS,
      reply: (await import('../fakes/local-validation')).googleError(
        400,
        'INVALID_ARGUMENT',
        'Request contains an invalid argument.',
        [{ field: 'media.source_url', message: 'Failed to fetch the photo from the provided URL.' }],
      ),
    })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'rejected',
        message:
          'LOCAL_NET: Request contains an invalid argument.; media.source_url: Failed to fetch the photo from the provided URL.',
      },
    })
  })
})
