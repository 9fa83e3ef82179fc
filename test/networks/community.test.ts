/**
 * The community network (Lemmy) through the engine against its loopback fake: every post it takes
 * (text, link, image, link with image, per-target options), the communities listed through the
 * account, and a refusal for each of its limits, at create where the rules know it and in the
 * server's words at publish where only the server does.
 */
import { describe, expect, it } from 'vitest'
import { RULES } from '../../src/domain/rules'
import { runDue } from '../support/engine'
import { account, storedMedia } from '../support/fixtures'
import { mp4 } from '../support/media'
import { getPost, picture, post, refused, setup } from './community-support'

describe('COMMUNITY_NET publishing (Lemmy API v3)', () => {
  it("states the server's limits as rules: title 3 to 200 on one line, body 50,000, one image, no video", () => {
    const rules = RULES.COMMUNITY_NET
    expect(rules.title).toMatchObject({ maxLength: 200, counting: 'characters', required: true, field: 'title' })
    expect(rules.title!.forbiddenCharacters).toEqual(['\n', '\r'])
    expect(rules.caption).toMatchObject({ maxLength: 50_000, counting: 'characters' })
    expect(rules.media).toMatchObject({ allowsTextOnly: true, maxItems: 1, altTextMaxLength: 1500, video: null })
    expect(rules.options.linkUrl).toEqual({ use: 'link_card', maxLength: 2000 })
    expect(rules.options.destination).toMatchObject({
      noun: 'community',
      nounPlural: 'communities',
      requiredToPublish: true,
    })
    expect(rules.options.fields.map((f) => [f.key, f.type])).toEqual([
      ['nsfw', 'boolean'],
      ['languageId', 'integer'],
    ])
    expect(rules).toMatchObject({ threadModel: false, thread: null, deleteSupported: true })
  })

  it('publishes a text post: the title, the caption as Markdown body, in the chosen community', async () => {
    const { t, fake, acct } = await setup()
    const caption = 'Some **bold** words\n\n- a list\n- [a link](https://example.org)'
    const p = await post(t, acct.id, { title: '  Weekly thread  ', caption }, '2')
    await runDue(t, t.publishQueue)
    const after = await getPost(t, p.id)
    expect(after.status).toBe('PUBLISHED')
    const [made] = fake.state.posts
    expect(made).toMatchObject({ name: 'Weekly thread', communityId: 2, body: caption, url: null, nsfw: false })
    expect(after.targets[0]).toMatchObject({
      platformPostId: String(made!.id),
      permalink: `${fake.url}/post/${made!.id}`,
    })
    const create = fake.server.calls('POST', '/api/v3/post')[0]!
    expect(create.headers.authorization).toMatch(/^Bearer eyJ/)
  })

  it("takes the caption's first line as the title when none is given", async () => {
    const { t, fake, acct } = await setup()
    await post(t, acct.id, { caption: 'First line is the title\nand the rest is the body' })
    await runDue(t, t.publishQueue)
    expect(fake.state.posts[0]).toMatchObject({ name: 'First line is the title' })
  })

  it('publishes a link post, an image post (uploaded to the instance) and a link with an image as thumbnail', async () => {
    const { t, fake, acct } = await setup()
    await post(t, acct.id, { title: 'A link', caption: 'Worth reading', linkUrl: 'https://example.org/article' })
    const img = await picture(t, 'A blue rectangle')
    await post(t, acct.id, { title: 'An image', caption: 'Look', mediaIds: [img] })
    const img2 = await picture(t)
    await post(t, acct.id, { title: 'Link and image', caption: '', mediaIds: [img2], linkUrl: 'https://example.org/b' })
    await runDue(t, t.publishQueue)
    const [link, image, both] = fake.state.posts
    expect(link).toMatchObject({ url: 'https://example.org/article', body: 'Worth reading', customThumbnail: null })
    expect(image!.url).toMatch(new RegExp(`^${fake.url}/pictrs/image/[0-9a-f-]+\\.jpeg$`))
    expect(image).toMatchObject({ altText: 'A blue rectangle', body: 'Look' })
    expect(both).toMatchObject({
      url: 'https://example.org/b',
      body: null,
      customThumbnail: expect.stringContaining('/pictrs/image/'),
    })
    // The uploaded image is served by the instance, byte for byte as stored.
    const served = await fetch(image!.url!)
    expect(served.status).toBe(200)
    expect(fake.state.images.size).toBe(2)
    const upload = fake.server.calls('POST', '/pictrs/image')[0]!
    expect(upload.headers.authorization).toMatch(/^Bearer /)
    expect([...(await upload.formData()).keys()]).toEqual(['images[]'])
  })

  it('sends the per-target options: NSFW and the language', async () => {
    const { t, fake, acct } = await setup()
    await post(t, acct.id, {
      title: 'Options',
      caption: 'x',
      targetOptions: { [acct.id]: { nsfw: true, languageId: 37 } },
    })
    await runDue(t, t.publishQueue)
    expect(fake.state.posts[0]).toMatchObject({ nsfw: true, languageId: 37 })
    const { error } = await refused(t, acct.id, {
      title: 'x',
      caption: 'x',
      targetOptions: { [acct.id]: { nsfw: 'yes' } },
    })
    expect(error).toMatchObject({
      code: 'invalid_option',
      message: 'NSFW (nsfw) must be true or false.',
      details: [expect.objectContaining({ path: `targetOptions.${acct.id}.nsfw` })],
    })
  })

  it('lists the communities the account follows, every page, as destinations', async () => {
    const { t, fake, acct } = await setup({ followed: 120 })
    const res = await t.call('GET', `/v1/accounts/${acct.id}/destinations`)
    expect(res.status).toBe(200)
    const body = await res.json()
    const list: Array<{ id: string; name: string; description: string | null }> = body.destinations ?? body.data ?? body
    expect(list).toHaveLength(121)
    const host = new URL(fake.url).host
    expect(list[0]).toEqual({ id: '1', name: 'Topic 1', description: `!topic1@${host}` })
    expect(list.some((d) => d.id === '901')).toBe(false)
    const pages = fake.server.calls('GET', '/api/v3/community/list')
    expect(pages.map((r) => [r.query.get('type_'), r.query.get('page'), r.query.get('limit')])).toEqual([
      ['Subscribed', '1', '50'],
      ['Subscribed', '2', '50'],
      ['Subscribed', '3', '50'],
    ])
    // A community the account does not follow is refused at create.
    const other = await refused(t, acct.id, { title: 'Elsewhere', caption: 'x', destinations: { [acct.id]: '901' } })
    expect(other.status).toBe(422)
  })

  it('refuses at create a title over 200 characters', async () => {
    const { t, acct } = await setup()
    const refusal = await refused(t, acct.id, { title: 'x'.repeat(201), caption: 'x' })
    expect(refusal.status).toBe(422)
    expect(JSON.stringify(refusal.error)).toMatch(/title/)
    expect((await refused(t, acct.id, { title: 'x'.repeat(200), caption: 'x' })).status).toBe(200)
  })

  it('refuses at create what the rules know: a long body, two images, a video', async () => {
    const { t, acct } = await setup()
    const body = await refused(t, acct.id, { title: 'Long', caption: 'y'.repeat(50_001) })
    expect(body).toMatchObject({ status: 422, error: { code: 'caption_too_long' } })
    const two = await refused(t, acct.id, {
      title: 'Two',
      caption: 'x',
      mediaIds: [await picture(t), await picture(t)],
    })
    expect(two.status, 'two images').toBe(422)
    const bytes = mp4({ durationSec: 3, width: 320, height: 240 })
    const clip = await storedMedia(t, {
      bytes,
      mimeType: 'video/mp4',
      type: 'VIDEO',
      width: 320,
      height: 240,
      durationSec: 3,
    })
    const video = await refused(t, acct.id, { title: 'Video', caption: 'x', mediaIds: [clip] })
    expect(video).toMatchObject({ status: 422, error: { code: 'media_not_supported' } })
  })

  it("fails in the server's words what only the server knows: a short title, a moderators-only community, a language, long alt text", async () => {
    const { t, fake, acct } = await setup()
    const short = await post(t, acct.id, { title: 'Hi', caption: 'x' })
    const mods = await post(t, acct.id, { title: 'Announcement', caption: 'x' }, '900')
    const lang = await post(t, acct.id, {
      title: 'Language',
      caption: 'x',
      targetOptions: { [acct.id]: { languageId: 99 } },
    })
    const alt = await post(t, acct.id, {
      title: 'Alt text',
      caption: 'x',
      mediaIds: [await picture(t, 'a'.repeat(1501))],
    })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, short.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: expect.stringContaining('title must be at least 3 characters') },
    })
    expect((await getPost(t, mods.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'rejected',
        message: 'COMMUNITY_NET: only moderators may post in this community (only_mods_can_post_in_community)',
      },
    })
    expect((await getPost(t, lang.id)).targets[0].error.message).toContain('language_not_allowed')
    expect((await getPost(t, alt.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: 'COMMUNITY_NET: alt_text_length_overflow' },
    })
    expect(fake.state.posts).toHaveLength(0)
  })

  it('has a sandbox twin: simulated communities to choose from, a post with its title, a missing community refused at create', async () => {
    const { t } = await setup()
    const sandbox = await account(t, 'COMMUNITY_NET')
    const listed = await (await t.call('GET', `/v1/accounts/${sandbox.id}/destinations`)).json()
    const list: Array<{ id: string }> = listed.destinations ?? listed.data ?? listed
    expect(list.length).toBeGreaterThan(0)
    const p = await post(t, sandbox.id, { title: 'Sandboxed', caption: 'x' }, list[0]!.id)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    const none = await refused(t, sandbox.id, { title: 'Nowhere', caption: 'x', destinations: null })
    expect(none).toMatchObject({ status: 422, error: { code: 'invalid_option' } })
    expect(none.error.details[0].path).toBe(`destinations.${sandbox.id}`)
    expect(none.error.message).toContain('has no community')
  })
})
