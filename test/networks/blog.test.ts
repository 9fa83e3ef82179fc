import { describe, expect, it } from 'vitest'
import { USER_AGENT } from '../../src/networks/adapters/blog/api'
import { storedMedia } from '../support/fixtures'
import { mp4 } from '../support/media'
import { BLOG, CREDS, START, blogPost, getPost, photo, publishDirect, setupBlog } from './blog-setup'
import { runDue } from '../support/engine'

describe('BLOG_NET adapter (Tumblr API v2, NPF)', () => {
  it("lists the member's blogs as identities, verifies the account's blog, and refuses a bad token", async () => {
    const { t, fake, adapter } = await setupBlog()
    const input = { connection: 'DIRECT_LOGIN', credentials: CREDS, fetch, baseUrl: fake.url, now: new Date(START) }
    const blogs = await adapter.listIdentities!(input)
    expect(blogs.map((b) => [b.username, b.externalId])).toEqual([
      ['ada-bakes', 't:AdaBakes0000000000001'],
      ['ada-notes', 't:AdaNotes0000000000002'],
    ])
    expect(blogs[1]!.credentials).toMatchObject({ blogId: 't:AdaNotes0000000000002', blogName: 'ada-notes' })
    expect(await adapter.verifyCredentials!(input)).toMatchObject({ username: 'ada-bakes', externalId: BLOG.blogId })
    fake.state.blogs.splice(0, 1)
    await expect(adapter.verifyCredentials!(input)).rejects.toThrow(/can no longer post to the blog ada-bakes/)
    fake.expireAccessToken()
    await expect(adapter.listIdentities!(input)).rejects.toMatchObject({ kind: 'auth_expired' })
    expect(t).toBeDefined()
  })

  it('publishes a text post: each caption line a text block, the permalink on the blog, one User-Agent', async () => {
    const { t, fake, account } = await setupBlog()
    const p = await blogPost(t, account.id, { caption: 'Sourdough day\n\nThe starter is ready.' })
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({ status: 'PUBLISHED' })
    const made = fake.state.posts[0]!
    // The id beyond 2^53 survives as text.
    expect(target.platformPostId).toBe(made.id)
    expect(target.permalink).toBe(`https://www.tumblr.com/ada-bakes/${made.id}`)
    expect(made).toMatchObject({
      state: 'published',
      tags: [],
      content: [
        { type: 'text', text: 'Sourdough day' },
        { type: 'text', text: 'The starter is ready.' },
      ],
    })
    expect([...fake.state.userAgents]).toEqual([USER_AGENT])
    expect(fake.calls('POST', `/v2/blog/${encodeURIComponent(BLOG.blogId)}/posts`)[0]!.headers.authorization).toBe(
      'Bearer tb_access_1',
    )
  })

  it('uploads images in the multipart form under their identifiers, with alt text, the caption after them', async () => {
    const { t, fake, account } = await setupBlog()
    const a = await photo(t, [200, 30, 30], 'A red loaf')
    const b = await photo(t, [30, 200, 30])
    const p = await blogPost(t, account.id, { caption: 'Two loaves', mediaIds: [a.id, b.id] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PUBLISHED')
    const made = fake.state.posts[0]!
    expect(made.content.map((x) => x.type)).toEqual(['image', 'image', 'text'])
    expect(made.content[0]).toMatchObject({ alt_text: 'A red loaf' })
    expect(made.content[1]!.alt_text).toBeUndefined()
    expect(Buffer.compare(made.uploads.get('media-1')!.bytes, Buffer.from(a.bytes))).toBe(0)
    expect(Buffer.compare(made.uploads.get('media-2')!.bytes, Buffer.from(b.bytes))).toBe(0)
    const sent = fake.calls('POST', /\/posts$/)[0]!
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    const json = JSON.parse(await ((await sent.formData()).get('json') as Blob).text())
    expect(json.content[0].media).toEqual([{ type: 'image/jpeg', identifier: 'media-1', width: 800, height: 1000 }])
  })

  it('uploads a video as a native video block', async () => {
    const { t, fake, account } = await setupBlog()
    const bytes = mp4({ durationSec: 12, width: 1080, height: 1920 })
    const video = await storedMedia(t, { bytes, mimeType: 'video/mp4', width: 1080, height: 1920, durationSec: 12 })
    const p = await blogPost(t, account.id, { caption: 'Kneading', mediaIds: [video] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PUBLISHED')
    const made = fake.state.posts[0]!
    expect(made.content.map((x) => x.type)).toEqual(['video', 'text'])
    expect(Buffer.compare(made.uploads.get('media-1')!.bytes, Buffer.from(bytes))).toBe(0)
  })

  it('adds linkUrl as a link block', async () => {
    const { t, fake, account } = await setupBlog()
    const p = await blogPost(t, account.id, { caption: 'New recipe', linkUrl: 'https://bakery.example/rye' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PUBLISHED')
    expect(fake.state.posts[0]!.content).toEqual([
      { type: 'text', text: 'New recipe' },
      { type: 'link', url: 'https://bakery.example/rye', display_url: 'https://bakery.example/rye' },
    ])
  })

  it('sends the title as a heading block, tags comma-separated, the state and the source, from the post body', async () => {
    const { t, fake, account } = await setupBlog()
    const p = await blogPost(t, account.id, {
      caption: 'Body line',
      title: 'Rye, at last',
      targetOptions: {
        [account.id]: { tags: ['bread', 'rye bread'], state: 'queue', sourceUrl: 'https://bakery.example/src' },
      },
    })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PUBLISHED')
    expect(fake.state.posts[0]).toMatchObject({
      state: 'queue',
      tags: ['bread', 'rye bread'],
      source_url: 'https://bakery.example/src',
      content: [
        { type: 'text', subtype: 'heading1', text: 'Rye, at last' },
        { type: 'text', text: 'Body line' },
      ],
    })
    const json = JSON.parse(await ((await fake.calls('POST', /\/posts$/)[0]!.formData()).get('json') as Blob).text())
    expect(json.tags).toBe('bread,rye bread')
  })

  it('publishes no heading without a title: the first line stays the first paragraph', async () => {
    const { t, fake, account } = await setupBlog()
    await blogPost(t, account.id, { caption: 'Rye\nBaked at dawn' })
    await runDue(t, t.publishQueue)
    expect(fake.state.posts[0]!.content).toEqual([
      { type: 'text', text: 'Rye' },
      { type: 'text', text: 'Baked at dawn' },
    ])
  })

  it('splits a line over 4,096 characters into text blocks at a space', async () => {
    const s = await setupBlog()
    const long = `${'word '.repeat(900)}${'tail '.repeat(10)}`.trim()
    const p = await blogPost(s.t, s.account.id, { caption: long, action: 'draft' })
    const { result } = await publishDirect(s, p.id, {})
    expect(result).toMatchObject({ status: 'published' })
    const texts = s.fake.state.posts[0]!.content.map((b) => b.text as string)
    expect(texts).toHaveLength(2)
    expect(Array.from(texts[0]!).length).toBeLessThanOrEqual(4096)
    expect(texts.join(' ')).toBe(long)
  })
})
