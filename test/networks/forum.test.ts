/**
 * The forum network (Reddit) through the engine against its loopback fake: every kind of
 * submission (self, link, image, video with its poster, gallery) with its title and options, the
 * subreddits listed through the account and checked at create, and a refusal for each limit.
 */
import { describe, expect, it } from 'vitest'
import { mediaAssets } from '../../src/db/schema'
import { eq } from 'drizzle-orm'
import { uploadUrl } from '../../src/networks/adapters/forum/media'
import { runDue } from '../support/engine'
import { account } from '../support/fixtures'
import { USER_AGENT, getPost, image, post, setup, submit, video } from './forum-support'

describe('FORUM_NET adapter (Reddit API): formats', () => {
  it('submits a self post: the caption as its Markdown body, the title, flair, NSFW, spoiler and replies', async () => {
    const { t, fake, account } = await setup()
    const p = await post(
      t,
      account.id,
      { title: 'Sourdough starter, day 5', caption: 'It **doubled** overnight.\n\n- flour\n- water' },
      'bakers',
      { flairId: 'f-recipe', flairText: 'Recipe', nsfw: false, spoiler: true, sendReplies: false },
    )
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    const made = fake.visible()[0]!
    expect(target).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: made.name,
      permalink: `https://www.reddit.com/r/bakers/comments/${made.id}/sourdough_starter_day_5/`,
    })
    expect(made).toMatchObject({
      kind: 'self',
      subreddit: 'bakers',
      title: 'Sourdough starter, day 5',
      selftext: 'It **doubled** overnight.\n\n- flour\n- water',
      flair_id: 'f-recipe',
      flair_text: 'Recipe',
      over_18: false,
      spoiler: true,
      send_replies: false,
    })
    // Every call names the service with the configured User-Agent.
    expect(new Set(fake.state.userAgents)).toEqual(new Set([USER_AGENT]))
  })

  it("submits a link post to linkUrl; the title defaults to the caption's first line", async () => {
    const { t, fake, account } = await setup()
    await post(
      t,
      account.id,
      { caption: 'Our new opening hours\nfrom Monday', linkUrl: 'https://bakery.example/hours' },
      'LinksOnly',
    )
    await runDue(t, t.publishQueue)
    expect(fake.visible()[0]).toMatchObject({
      kind: 'link',
      subreddit: 'LinksOnly',
      title: 'Our new opening hours',
      url: 'https://bakery.example/hours',
    })
  })

  it('uploads an image through the media lease, submits it, and waits until the network shows it', async () => {
    const { t, fake, account, advance } = await setup()
    const photo = await image(t, [200, 30, 30])
    const p = await post(t, account.id, { title: 'Red loaf', caption: 'ignored for images', mediaIds: [photo.id] })
    await runDue(t, t.publishQueue)
    // Answered without the post's id: it appears among the account's submissions once processed.
    expect((await getPost(t, p.id)).targets[0].status).toBe('PENDING')
    advance(15)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PENDING')
    advance(15)
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    const made = fake.visible()[0]!
    expect(target).toMatchObject({ status: 'PUBLISHED', platformPostId: made.name })
    expect(made.kind).toBe('image')
    const asset = [...fake.state.assets.values()][0]!
    expect(made.url).toBe(`${fake.url}/media-upload/${asset.key}`)
    expect(Buffer.compare(asset.bytes!, Buffer.from(photo.bytes))).toBe(0)
    expect(fake.calls('POST', '/api/media/asset.json')[0]!.form().get('mimetype')).toBe('image/jpeg')
    // The media store is not the API: no token goes there.
    expect(fake.calls('POST', '/media-upload')[0]!.headers.authorization).toBeUndefined()
    expect(fake.calls('POST', '/api/submit')).toHaveLength(1)
  })

  it('uploads a video and its poster image, then submits kind=video with video_poster_url', async () => {
    const { t, fake, account, advance } = await setup()
    const clip = await video(t)
    const poster = await image(t, [10, 10, 200])
    const p = await post(t, account.id, { title: 'Kneading, 20 s', mediaIds: [clip.id, poster.id] })
    await runDue(t, t.publishQueue)
    for (const _ of [1, 2]) {
      advance(15)
      await runDue(t, t.publishQueue)
    }
    expect((await getPost(t, p.id)).targets[0].status).toBe('PUBLISHED')
    const made = fake.visible()[0]!
    const [v, i] = [...fake.state.assets.values()]
    expect(made).toMatchObject({
      kind: 'video',
      url: `${fake.url}/media-upload/${v!.key}`,
      poster: `${fake.url}/media-upload/${i!.key}`,
    })
    expect(Buffer.compare(v!.bytes!, Buffer.from(clip.bytes))).toBe(0)
  })

  it('submits 2 or more images as a gallery, each alt text as its item caption', async () => {
    const { t, fake, account } = await setup()
    const photos = [
      await image(t, [1, 1, 200], 'Blue bowl'),
      await image(t, [1, 200, 1], 'Green tin'),
      await image(t, [200, 1, 1]),
    ]
    const p = await post(
      t,
      account.id,
      { type: 'CAROUSEL', title: 'Three bakes', mediaIds: photos.map((x) => x.id) },
      'bakers',
      {
        nsfw: true,
      },
    )
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    const made = fake.visible()[0]!
    expect(target).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: made.name,
      permalink: `https://www.reddit.com/gallery/${made.id}`,
    })
    expect(made).toMatchObject({ kind: 'gallery', title: 'Three bakes', over_18: true })
    expect(made.gallery.map((g) => g.caption)).toEqual(['Blue bowl', 'Green tin', ''])
    expect(
      made.gallery.map((g) =>
        Buffer.compare(fake.state.assets.get(g.media_id)!.bytes!, Buffer.from(photos.shift()!.bytes)),
      ),
    ).toEqual([0, 0, 0])
  })

  it('turns a scheme-less media store address into https, as the network writes it', () => {
    expect(uploadUrl('//reddit-uploaded-media.s3-accelerate.amazonaws.com')).toBe(
      'https://reddit-uploaded-media.s3-accelerate.amazonaws.com',
    )
    expect(uploadUrl('http://127.0.0.1:9/media-upload')).toBe('http://127.0.0.1:9/media-upload')
  })
})

describe('FORUM_NET: subreddits', () => {
  it("lists the account's subreddits (subscribed, moderated, contributed), paged with `after`, once each", async () => {
    const { t, fake, account } = await setup({ subreddits: 5 })
    fake.state.pageSize = 2
    const res = await t.call('GET', `/v1/accounts/${account.id}/destinations`)
    expect(res.status).toBe(200)
    const body = await res.json()
    const list = Array.isArray(body) ? body : (body.data ?? body.destinations)
    expect(list.map((d: { id: string }) => d.id)).toEqual([
      'bakers',
      'SelfOnly',
      'flaired',
      'extra1',
      'extra2',
      'extra3',
      'extra4',
      'extra5',
      'LinksOnly',
    ])
    expect(list[0]).toEqual({ id: 'bakers', name: 'r/bakers', description: 'Bread and pastry' })
    expect(fake.calls('GET', '/subreddits/mine/subscriber').map((r) => r.query.get('after'))).toEqual([
      null,
      't5_SelfOnly',
      't5_extra1',
      't5_extra3',
    ])
  })

  it('refuses at create a subreddit the account cannot choose; a draft makes no network call', async () => {
    const { t, fake, account } = await setup()
    expect((await submit(t, account.id, { caption: 'Draft', action: 'draft' }, 'nowhere')).status).toBe(200)
    expect(fake.calls('GET', /^\/subreddits\/mine\//)).toHaveLength(0)
    const refused = await submit(t, account.id, { caption: 'Somewhere else' }, 'nowhere')
    expect(refused.status).toBe(422)
    expect((await refused.json()).error).toMatchObject({ code: 'invalid_option' })
  })
})

describe('FORUM_NET: limits', () => {
  it('refuses a title over 300 characters and a self post body over 40,000 at create', async () => {
    const { t, account } = await setup()
    const long = await submit(t, account.id, { title: 'x'.repeat(301), caption: 'Body' })
    expect(long.status).toBe(422)
    expect(JSON.stringify(await long.json())).toMatch(/title/)
    const body = await submit(t, account.id, { title: 'Fine', caption: 'y'.repeat(40_001) })
    expect(body.status).toBe(422)
    expect((await body.json()).error.code).toBe('caption_too_long')
    expect((await submit(t, account.id, { title: 'x'.repeat(300), caption: 'y'.repeat(40_000) })).status).toBe(200)
  })

  it('refuses more than 20 gallery images, an image over 20 MB, a video over 1 GB or 15 minutes', async () => {
    const { t, account } = await setup()
    const photos = await Promise.all(Array.from({ length: 21 }, (_, i) => image(t, [i, i, i])))
    const many = await submit(t, account.id, { type: 'CAROUSEL', title: 'Many', mediaIds: photos.map((p) => p.id) })
    expect(many.status).toBe(422)
    const big = await image(t, [9, 9, 9])
    await t.deps.db.update(mediaAssets).set({ sizeBytes: 20_000_001 }).where(eq(mediaAssets.id, big.id))
    expect((await submit(t, account.id, { title: 'Big', mediaIds: [big.id] })).status).toBe(422)
    const poster = await image(t, [8, 8, 8])
    const long = await video(t, 15 * 60 + 1)
    expect((await submit(t, account.id, { title: 'Long', mediaIds: [long.id, poster.id] })).status).toBe(422)
    const huge = await video(t)
    await t.deps.db.update(mediaAssets).set({ sizeBytes: 1_000_000_001 }).where(eq(mediaAssets.id, huge.id))
    expect((await submit(t, account.id, { title: 'Huge', mediaIds: [huge.id, poster.id] })).status).toBe(422)
    expect(
      (
        await submit(t, account.id, {
          type: 'CAROUSEL',
          title: 'Twenty',
          mediaIds: photos.slice(0, 20).map((p) => p.id),
        })
      ).status,
    ).toBe(200)
  })

  it('refuses an option of the wrong type, and a post without a subreddit when it is to go out', async () => {
    const { t, account } = await setup()
    const wrong = await submit(t, account.id, { title: 'T', caption: 'B' }, 'bakers', { nsfw: 'yes' })
    expect(wrong.status).toBe(422)
    expect((await wrong.json()).error.code).toBe('invalid_option')
    const missing = await submit(t, account.id, { title: 'T', caption: 'B' }, null)
    expect(missing.status).toBe(422)
  })

  it("refuses in the network's words what only the subreddit knows: text posts, links, flair, a missing subreddit", async () => {
    const { t, fake, account } = await setup()
    const self = await post(t, account.id, { title: 'Text here', caption: 'Body' }, 'LinksOnly')
    const link = await post(
      t,
      account.id,
      { title: 'A link', caption: 'See the link', linkUrl: 'https://bakery.example' },
      'SelfOnly',
    )
    const flair = await post(t, account.id, { title: 'No flair', caption: 'Body' }, 'flaired')
    await runDue(t, t.publishQueue)
    const errorOf = async (id: string) => (await getPost(t, id)).targets[0].error
    expect(await errorOf(self.id)).toMatchObject({
      code: 'rejected',
      message: "FORUM_NET: NO_SELFS: that subreddit doesn't allow text posts (sr)",
    })
    expect(await errorOf(link.id)).toMatchObject({
      code: 'rejected',
      message: 'FORUM_NET: NO_LINKS: that subreddit only allows text posts (sr)',
    })
    expect(await errorOf(flair.id)).toMatchObject({
      code: 'rejected',
      message: expect.stringMatching(/SUBMIT_VALIDATION_FLAIR_REQUIRED/),
    })
    const gone = await post(t, account.id, { title: 'Gone', caption: 'Body' }, 'bakers')
    fake.state.subreddits = fake.state.subreddits.filter((sr) => sr.display_name !== 'bakers')
    await runDue(t, t.publishQueue)
    expect(await errorOf(gone.id)).toMatchObject({
      code: 'rejected',
      message: expect.stringMatching(/SUBREDDIT_NOEXIST/),
    })
    expect(fake.visible()).toHaveLength(0)
  })
})

describe('FORUM_NET: sandbox twin', () => {
  it('lists simulated subreddits for a sandbox account and publishes a submission to one, refusing one without', async () => {
    const { t } = await setup()
    const sandbox = await account(t, 'FORUM_NET', 'sandbox_forum')
    const res = await t.call('GET', `/v1/accounts/${sandbox.id}/destinations`)
    expect(res.status).toBe(200)
    const body = await res.json()
    const list: Array<{ id: string; name: string }> = Array.isArray(body) ? body : (body.data ?? body.destinations)
    expect(list.map((d) => d.name)).toEqual(['General subreddit', 'Announcements subreddit', 'Testing subreddit'])
    const p = await post(t, sandbox.id, { title: 'Sandbox title', caption: 'Sandbox body' }, list[0]!.id, {
      nsfw: true,
    })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PUBLISHED')
    expect((await submit(t, sandbox.id, { title: 'Nowhere', caption: 'Body' }, null)).status).toBe(422)
  })
})
