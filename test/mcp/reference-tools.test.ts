/**
 * The MCP tools an agent uses to hold media it has as bytes and to pick canvases, audio and caption
 * style: `upload_media` (base64), `attach_media` with a canvas, `image_formats`, `list_audio`, and
 * the caption formatting rules of `platform_limits`, driven with the SDK's client over real HTTP.
 */
import { describe, expect, it } from 'vitest'
import { RULES } from '../../src/domain/rules/index'
import { account } from '../support/fixtures'
import { mcpSession, serveApp } from '../support/mcp'
import { jpeg, paint, png } from '../support/media'
import { createTestApp } from '../support/test-app'

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

describe('MCP media from bytes and reference tools', () => {
  it('stores a base64 file as an asset, refuses bad base64 and a lying type, and attaches a canvas cut', async () => {
    const t = await createTestApp()
    const session = await mcpSession(t, await serveApp(t))
    const photo = await account(t, 'PHOTO_NET')
    const bytes = await jpeg(paint(1200, 800, (x, y) => [x % 256, y % 256, 120]))

    const asset = await session.ok('upload_media', {
      data: base64(bytes),
      filename: 'Launch Day.jpg',
      contentType: 'image/jpeg',
      altText: 'A launch',
    })
    expect(asset).toMatchObject({ type: 'IMAGE', mimeType: 'image/jpeg', width: 1200, height: 800 })
    expect(asset).toMatchObject({ sizeBytes: bytes.byteLength, altText: 'A launch' })
    expect(asset.storageKey).toMatch(new RegExp(`^${t.workspaceId}/\\d{4}/\\d{2}/[A-Za-z0-9]{12}-launch-day\\.jpg$`))
    const stored = await fetch(asset.url)
    expect(new Uint8Array(await stored.arrayBuffer())).toEqual(bytes)

    const bad = await session.refused('upload_media', {
      data: 'not base64!',
      filename: 'x.jpg',
      contentType: 'image/jpeg',
    })
    expect(bad).toMatchObject({ code: 'invalid_request', details: [{ path: 'data' }] })
    expect(bad.message).toContain('not base64')
    const lying = await session.refused('upload_media', {
      data: base64(await png(paint(10, 10, () => [0, 0, 0]))),
      filename: 'x.jpg',
      contentType: 'image/jpeg',
    })
    expect(lying).toMatchObject({ code: 'media_not_supported', details: [{ path: 'data' }] })
    expect(lying.message).toContain('image/png')
    const html = await session.refused('upload_media', {
      data: base64(new TextEncoder().encode('<html></html>')),
      filename: 'x.html',
      contentType: 'text/html',
    })
    expect(html).toMatchObject({ code: 'media_not_supported', details: [{ path: 'contentType' }] })
    expect((await session.ok('list_media', { limit: 10 })).data.map((m: { id: string }) => m.id)).toEqual([asset.id])

    const draft = await session.ok('create_post', {
      type: 'IMAGE',
      accountIds: [photo.id],
      mediaIds: [],
      action: 'draft',
      caption: 'Soon',
    })
    const attached = await session.ok('attach_media', {
      postId: draft.id,
      mediaIds: [asset.id],
      format: 'feed_square',
      fit: 'contain',
    })
    const [cut] = attached.mediaIds
    expect(cut).not.toBe(asset.id)
    const variant = (await session.ok('list_media', { limit: 10 })).data.find((m: { id: string }) => m.id === cut)
    expect(variant).toMatchObject({ sourceId: asset.id, width: 1080, height: 1080, altText: 'A launch' })
    // The same cut asked again is the same variant, and the post does not repeat it.
    const again = await session.ok('attach_media', {
      postId: draft.id,
      mediaIds: [asset.id],
      format: 'feed_square',
      fit: 'contain',
    })
    expect(again.mediaIds).toEqual([cut])
    const made = await session.ok('create_variants', { id: asset.id, formats: ['feed_square'], fit: 'contain' })
    expect(made.variants[0].id).toBe(cut)
    const portrait = await session.ok('attach_media', {
      postId: draft.id,
      mediaIds: [asset.id],
      format: 'feed_portrait',
    })
    expect(portrait.mediaIds).toHaveLength(2)
    expect(portrait.mediaIds[0]).toBe(cut)
    const unknown = await session.refused('attach_media', { postId: draft.id, mediaIds: [asset.id], format: 'poster' })
    expect(unknown).toMatchObject({ code: 'invalid_request', details: [{ path: 'format' }] })
  })

  it('answers canvases, audio catalogues and caption formatting as data, as /v1 does', async () => {
    const t = await createTestApp()
    const session = await mcpSession(t, await serveApp(t))

    const { canvases, otherSizes } = await session.ok('image_formats')
    expect(canvases.map((c: { canvas: string }) => c.canvas)).toEqual([
      'feed_portrait',
      'feed_square',
      'landscape',
      'story',
    ])
    const portrait = canvases[0]
    expect(portrait).toMatchObject({ width: 1080, height: 1350, aspectRatio: 0.8 })
    expect(portrait.usedBy).toContainEqual({ platform: 'PHOTO_NET', format: 'IMAGE' })
    const story = canvases.find((c: { canvas: string }) => c.canvas === 'story')
    expect(story).toMatchObject({ aspectRatio: 0.56 })
    expect(story.usedBy).toContainEqual({ platform: 'PHOTO_NET', format: 'REEL' })
    // Every recommended size of the registry is in exactly one place of the answer.
    const placed = canvases.reduce((n: number, c: { usedBy: unknown[] }) => n + c.usedBy.length, 0) + otherSizes.length
    const distinct = Object.values(RULES).reduce(
      (n, r) => n + new Set(r.recommended.map((s) => `${s.format}:${s.canvas ?? `${s.width}x${s.height}`}`)).size,
      0,
    )
    expect(placed).toBe(distinct)

    const photo = await session.ok('list_audio', { platform: 'PHOTO_NET' })
    expect(photo).toMatchObject({ platform: 'PHOTO_NET', formats: ['REEL'], audio: [] })
    expect(photo.reason).toContain('SOCIALGRAPH_LOGIN')
    const short = await session.ok('list_audio', { platform: 'SHORTVIDEO_NET' })
    expect(short).toMatchObject({ formats: [], audio: [] })
    expect(short.reason).toContain('offers no audio catalogue to third parties')
    const micro = await session.ok('list_audio', { platform: 'MICROBLOG_NET' })
    expect(micro.reason).toContain('no reel or short-video format')
    const rest = await t.call('GET', '/v1/platforms/PHOTO_NET/audio')
    expect(rest.status).toBe(200)
    expect(await rest.json()).toEqual(photo)
    expect((await t.call('GET', '/v1/platforms/NOPE_NET/audio')).status).toBe(400)
    expect((await session.refused('list_audio', { platform: 'NOPE_NET' })).code).toBe('invalid_request')

    const { platforms } = await session.ok('platform_limits', {
      platforms: ['MICROBLOG_NET', 'CHAT_NET', 'PROFESSIONAL_NET'],
    })
    expect(platforms.MICROBLOG_NET.formatting).toMatchObject({ markdown: false, links: 'shortened', lineBreaks: true })
    expect(platforms.CHAT_NET.formatting).toMatchObject({ markdown: true, hashtags: null, mentions: '<@userId>' })
    expect(platforms.PROFESSIONAL_NET.formatting).toMatchObject({ hashtags: null, mentions: null })
    const registry = await (await t.call('GET', '/v1/platforms')).json()
    expect(registry.MICROBLOG_NET.formatting).toEqual(platforms.MICROBLOG_NET.formatting)
  })
})
