/**
 * WORKCHAT_NET through the engine against its loopback fake: the bot token checked with
 * `auth.test`, channels listed, every format (text, images as blocks, videos as shared files), a
 * thread, and each limit refused before anything is sent.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { mediaAssets } from '../../src/db/schema'
import { checkCredentials } from '../../src/networks/credentials'
import { connectAccount } from '../../src/services/accounts/connection'
import { runDue } from '../support/engine'
import { clip, createPost, getPost, photo, setup, storedCredentials } from './workchat-support'

describe('WORKCHAT_NET adapter (Slack Web API)', () => {
  it('verifies a pasted bot token with auth.test and stores whose it is; refuses a bad one', async () => {
    const { t, fake } = await setup()
    const connect = (credentials: Record<string, unknown>) =>
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'WORKCHAT_NET',
        connection: 'BOT_TOKEN',
        credentials,
      })
    const added = await connect({ botToken: fake.state.accessToken })
    expect(added).toMatchObject({ username: 'publisher @ Acme', platform: 'WORKCHAT_NET' })
    const { row, credentials } = await storedCredentials(t, added.id)
    expect(row.externalId).toBe('T0TEAM001:U0BOT0001')
    expect(credentials).toMatchObject({ botToken: fake.state.accessToken, botUserId: 'U0BOT0001', teamId: 'T0TEAM001' })
    expect(fake.calls('GET', '/api/auth.test')[0]!.headers.authorization).toBe(`Bearer ${fake.state.accessToken}`)
    await expect(connect({ botToken: 'xoxb-1-wrong' })).rejects.toThrow(/token is not valid.*invalid_auth/)
    expect(checkCredentials('WORKCHAT_NET', 'BOT_TOKEN', { botToken: 'xoxp-user-token' })).toEqual({
      ok: false,
      problems: ["botToken: must be the app's bot token (xoxb-...)"],
    })
  })

  it('lists the channels the bot can post to, following the cursor: public ones and its private ones', async () => {
    const { t, fake, account } = await setup({ channels: 3 })
    fake.state.pageSizeCap = 2
    const res = await t.call('GET', `/v1/accounts/${account.id}/destinations`)
    expect(res.status).toBe(200)
    const { destinations } = await res.json()
    expect(destinations.map((c: { id: string }) => c.id)).toEqual([
      'C0GENERAL1',
      'C0RANDOM01',
      'G0SECRET01',
      'C0EXTRA000',
      'C0EXTRA001',
      'C0EXTRA002',
    ])
    expect(destinations[2]).toEqual({ id: 'G0SECRET01', name: '#leads', description: 'Private: Sales' })
    expect(fake.calls('GET', '/api/conversations.list').map((r) => r.query.get('types'))).toEqual(
      Array(3).fill('public_channel,private_channel'),
    )
  })

  it('refuses at create a channel the bot cannot post to (a private one it is not in, an archived one)', async () => {
    const { t, fake, account } = await setup()
    for (const channel of ['G0HIDDEN01', 'C0OLDNEWS1']) {
      const res = await t.call('POST', '/v1/posts', {
        body: {
          type: 'IMAGE',
          mediaIds: [],
          action: 'now',
          caption: 'Where?',
          accountIds: [account.id],
          destinations: { [account.id]: channel },
        },
      })
      expect(res.status).toBe(422)
      expect((await res.json()).error).toMatchObject({
        code: 'invalid_option',
        details: [expect.objectContaining({ path: `destinations.${account.id}` })],
      })
    }
    expect(fake.calls('POST', '/api/chat.postMessage')).toHaveLength(0)
  })

  it('posts text exactly as written: &, < and > escaped so no mention pings and no link is forged', async () => {
    const { t, fake, account } = await setup()
    const p = await createPost(t, { caption: 'Tea & cake <!channel> <@U0HUMAN01> *today*', accountIds: [account.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const [message] = fake.channelMessages('C0GENERAL1')
    expect(message!.text).toBe('Tea &amp; cake &lt;!channel&gt; &lt;@U0HUMAN01&gt; *today*')
    expect(message!.blocks).toBeNull()
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: `C0GENERAL1/${message!.ts}`,
      permalink: `https://acme.slack.com/archives/C0GENERAL1/p${message!.ts.replace('.', '')}`,
    })
  })

  it('joins a public channel it is not in before posting; refusals of the channel are told in words', async () => {
    const { t, fake, account } = await setup()
    await createPost(t, { caption: 'Hello random', accountIds: [account.id] }, 'C0RANDOM01')
    await runDue(t, t.publishQueue)
    expect(fake.channelMessages('C0RANDOM01').map((m) => m.text)).toEqual(['Hello random'])
    expect(fake.calls('POST', '/api/conversations.join').map((r) => r.json().channel)).toEqual(['C0RANDOM01'])
    const refusal = async (error: string) => {
      fake.failNextError(error, /chat\.postMessage/)
      const p = await createPost(t, { caption: `Refused ${error}`, accountIds: [account.id] })
      await runDue(t, t.publishQueue)
      return (await getPost(t, p.id)).targets[0]
    }
    expect(await refusal('channel_not_found')).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'rejected',
        message: expect.stringMatching(/cannot see it: choose another channel \(channel_not_found\)/),
      },
    })
    expect((await refusal('is_archived')).error).toMatchObject({ code: 'rejected', message: /archived/ })
    expect((await refusal('restricted_action')).error).toMatchObject({ code: 'rejected', message: /workspace setting/ })
    expect((await refusal('msg_too_long')).error).toMatchObject({ code: 'rejected', message: /too long/ })
  })

  it('refuses to publish a target without a channel, in words', async () => {
    const { t, fake, account } = await setup()
    const res = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', mediaIds: [], action: 'draft', caption: 'Nowhere', accountIds: [account.id] },
    })
    expect(res.status).toBe(200)
    const { id } = await res.json()
    const published = await t.call('POST', `/v1/posts/${id}/publish`)
    expect(published.status).toBe(422)
    expect((await published.json()).error.message).toMatch(/channel/)
    expect(fake.calls('POST', '/api/chat.postMessage')).toHaveLength(0)
  })

  it('posts images as a caption section and image blocks the network fetches, alt text included', async () => {
    const { t, fake, account } = await setup()
    const a = await photo(t, [200, 10, 10], 'A red loaf')
    const b = await photo(t, [10, 10, 200])
    const caption = `${'x'.repeat(2998)} & more`
    await createPost(t, { caption, accountIds: [account.id], mediaIds: [a.id, b.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const [message] = fake.channelMessages('C0GENERAL1')
    const blocks = message!.blocks!
    expect(blocks.map((x) => x.type)).toEqual(['section', 'section', 'image', 'image'])
    expect(blocks[0]!.text).toEqual({ type: 'mrkdwn', text: `${'x'.repeat(2998)} ` })
    expect(blocks[1]!.text.text).toBe('&amp; more')
    expect(blocks.slice(2).map((x) => x.alt_text)).toEqual(['A red loaf', 'Image'])
    expect(message!.text).toBe(`${'x'.repeat(2998)} &amp; more`)
    expect(message!.images.map((img, i) => Buffer.compare(img, Buffer.from([a, b][i]!.bytes)))).toEqual([0, 0])
  })

  it('shares videos through the external upload flow with the caption as comment, waiting for the share to show', async () => {
    const { t, fake, account, advance } = await setup({ shareDelayReads: 2 })
    const one = await clip(t, 7)
    const two = await clip(t, 11)
    const p = await createPost(t, {
      caption: 'Launch <b>clip</b>',
      accountIds: [account.id],
      mediaIds: [one.id, two.id],
    })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PENDING')
    for (let i = 0; i < 3; i++) {
      advance(5)
      await runDue(t, t.publishQueue)
    }
    const target = (await getPost(t, p.id)).targets[0]
    expect(target.status).toBe('PUBLISHED')
    const [message] = fake.channelMessages('C0GENERAL1')
    expect(target.platformPostId).toBe(`C0GENERAL1/${message!.ts}`)
    expect(message!.text).toBe('Launch &lt;b&gt;clip&lt;/b&gt;')
    expect(message!.files!.map((f, i) => Buffer.compare(f.bytes, Buffer.from([one, two][i]!.bytes)))).toEqual([0, 0])
    const registered = fake.calls('POST', '/api/files.getUploadURLExternal').map((r) => r.form())
    expect(registered.map((f) => [f.get('filename'), f.get('length')])).toEqual([
      [`${one.id}.mp4`, '50000'],
      [`${two.id}.mp4`, '50000'],
    ])
    expect(fake.calls('POST', '/api/files.completeUploadExternal')).toHaveLength(1)
  })

  it('posts thread parts as replies under the head (thread_ts), in order', async () => {
    const { t, fake, account } = await setup()
    const p = await createPost(t, { caption: 'Head', accountIds: [account.id], threadParts: ['One', 'Two & three'] })
    await runDue(t, t.publishQueue)
    const [head] = fake.channelMessages('C0GENERAL1')
    expect(fake.replies('C0GENERAL1', head!.ts).map((m) => m.text)).toEqual(['One', 'Two &amp; three'])
    expect((await getPost(t, p.id)).targets[0].platformPostId).toBe(`C0GENERAL1/${head!.ts}`)
  })

  it('refuses each limit at create, before anything is sent', async () => {
    const { t, fake, account } = await setup()
    const refused = async (body: Record<string, unknown>, code: string) => {
      const res = await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], action: 'now', accountIds: [account.id], ...body },
      })
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422)
      expect((await res.json()).error.code).toBe(code)
    }
    await refused({ caption: 'x'.repeat(4001) }, 'caption_too_long')
    await refused({ caption: 'ok', threadParts: ['y'.repeat(4001)] }, 'thread_too_long')
    await refused({ caption: 'ok', threadParts: Array(26).fill('part') }, 'thread_too_long')
    const photos = await Promise.all(Array.from({ length: 11 }, (_, i) => photo(t, [i, i, i])))
    await refused({ caption: 'many', mediaIds: photos.map((x) => x.id) }, 'media_not_supported')
    const video = await clip(t)
    await refused({ caption: 'mixed', mediaIds: [photos[0]!.id, video.id] }, 'media_not_supported')
    await t.deps.db.update(mediaAssets).set({ sizeBytes: 1_000_000_001 }).where(eq(mediaAssets.id, video.id))
    await refused({ caption: 'huge', mediaIds: [video.id] }, 'media_not_supported')
    const { storedMedia } = await import('../support/fixtures')
    const webp = await storedMedia(t, { bytes: new Uint8Array([82, 73, 70, 70]), mimeType: 'image/webp' })
    await refused({ caption: 'webp', mediaIds: [webp] }, 'media_not_supported')
    expect(fake.calls('POST', '/api/chat.postMessage')).toHaveLength(0)
  })
})
