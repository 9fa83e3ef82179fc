import { describe, expect, it } from 'vitest'
import { PLATFORM_IDS, POST_TYPES, type PlatformId } from '../../src/domain/vocabulary'
import {
  CANVASES,
  RULES,
  THREAD_PLATFORMS,
  captionMaxLength,
  effectiveFormat,
  formatRulesFor,
  rulesFor,
} from '../../src/domain/rules/index'
import { INBOX_ACTIONS, PlatformRulesSchema, RulesRegistrySchema } from '../../src/domain/rules/schema'

const entries = () => PLATFORM_IDS.map((id) => [id, RULES[id]] as const)

describe('rules registry', () => {
  it('parses with the schema that documents GET /v1/platforms, unchanged', () => {
    const parsed = RulesRegistrySchema.parse(RULES)
    expect(parsed).toEqual(RULES)
    expect(JSON.parse(JSON.stringify(RULES))).toEqual(RULES)
  })

  it('holds exactly the twenty platform ids, each entry naming its own id', () => {
    expect(Object.keys(RULES).sort()).toEqual([...PLATFORM_IDS].sort())
    for (const [id, rules] of entries()) expect(rules.platform).toBe(id)
    expect(rulesFor('PINBOARD_NET')).toBe(RULES.PINBOARD_NET)
  })

  it('rejects an entry missing a field', () => {
    const { caption: _caption, ...withoutCaption } = RULES.MICROBLOG_NET
    expect(PlatformRulesSchema.safeParse(withoutCaption).success).toBe(false)
  })

  it('names the thread platforms of the spec, and only those have thread rules', () => {
    expect([...THREAD_PLATFORMS].sort()).toEqual(
      [
        'MICROBLOG_NET',
        'OPENPROTOCOL_NET',
        'FEDERATED_NET',
        'TEXTTHREAD_NET',
        'MESSAGING_NET',
        'CHAT_NET',
        'RELAY_NET',
        'WORKCHAT_NET',
      ].sort(),
    )
    for (const [id, rules] of entries()) {
      expect(rules.thread !== null, id).toBe(rules.threadModel)
      if (rules.thread) expect(rules.thread.maxParts, id).toBeGreaterThan(0)
    }
  })

  it('counts the microblog caption in weighted units with URLs at 23', () => {
    const { caption, thread } = RULES.MICROBLOG_NET
    expect(caption).toMatchObject({ maxLength: 280, counting: 'weighted', urlWeight: 23, normalization: 'NFC' })
    expect(thread?.part).toMatchObject({ maxLength: 280, counting: 'weighted', urlWeight: 23 })
  })

  it('counts the open-protocol caption in graphemes, capped in bytes as well', () => {
    expect(RULES.OPENPROTOCOL_NET.caption).toMatchObject({ maxLength: 300, counting: 'graphemes', maxBytes: 3000 })
  })

  it('gives the federated network 500 with URLs at 23 and the messaging app a shorter media caption', () => {
    expect(RULES.FEDERATED_NET.caption).toMatchObject({ maxLength: 500, urlWeight: 23, mentionDomainFree: true })
    expect(captionMaxLength('MESSAGING_NET', null)).toBe(4096)
    expect(captionMaxLength('MESSAGING_NET', 'image')).toBe(1024)
    expect(captionMaxLength('MESSAGING_NET', 'video')).toBe(1024)
    expect(captionMaxLength('SHORTVIDEO_NET', 'video')).toBe(2200)
    expect(captionMaxLength('SHORTVIDEO_NET', 'image')).toBe(4000)
    expect(RULES.TEXTTHREAD_NET.caption).toMatchObject({ maxLength: 500, counting: 'characters_emoji_bytes' })
  })

  it('limits pin titles to 100 and pin descriptions to 800, and needs a board to publish', () => {
    const pin = RULES.PINBOARD_NET
    expect(pin.caption.maxLength).toBe(800)
    expect(pin.title).toMatchObject({
      maxLength: 100,
      field: 'pinboardNetOptions.title',
      derivedFrom: 'caption_first_line',
    })
    expect(pin.options.pinboardNetOptions?.titleMaxLength).toBe(100)
    expect(pin.options.pinboardNetBoards?.requiredToPublish).toBe(true)
    expect(pin.options.linkUrl?.use).toBe('destination')
  })

  it('derives the video-sharing title and keeps angle brackets out of it', () => {
    const yt = RULES.VIDEOSHARE_NET
    expect(yt.title).toMatchObject({ maxLength: 100, required: true, forbiddenCharacters: ['<', '>'] })
    expect(yt.caption).toMatchObject({ maxLength: 5000, counting: 'utf8_bytes', forbiddenCharacters: ['<', '>'] })
  })

  it('requires media on the media-only networks and nowhere else', () => {
    const mediaOnly = PLATFORM_IDS.filter((id) => !RULES[id].media.allowsTextOnly).sort()
    expect(mediaOnly).toEqual(['PHOTO_NET', 'PINBOARD_NET', 'SHORTVIDEO_NET', 'VIDEOSHARE_NET'].sort())
  })

  it('falls back to the platform default for a format it does not honour', () => {
    expect(effectiveFormat('MICROBLOG_NET', 'STORY')).toBe(RULES.MICROBLOG_NET.defaultFormat)
    expect(effectiveFormat('MICROBLOG_NET', 'STORY')).toBe('IMAGE')
    expect(effectiveFormat('PHOTO_NET', 'STORY')).toBe('STORY')
    expect(effectiveFormat('SHORTVIDEO_NET', 'IMAGE')).toBe('REEL')
    expect(effectiveFormat('SOCIALGRAPH_NET', 'CAROUSEL')).toBe('IMAGE')
    for (const id of PLATFORM_IDS) {
      for (const type of POST_TYPES) {
        expect(formatRulesFor(id, type).type).toBe(effectiveFormat(id, type))
      }
    }
  })

  it('keeps format, kind and post media counts consistent', () => {
    for (const [id, { media, formats, defaultFormat }] of entries()) {
      const types = formats.map((f) => f.type)
      expect(types, id).toContain(defaultFormat)
      expect(new Set(types).size, id).toBe(types.length)
      for (const f of formats) {
        expect(f.minItems, `${id} ${f.type}`).toBeLessThanOrEqual(f.maxItems)
        expect(f.maxItems, `${id} ${f.type}`).toBeLessThanOrEqual(media.maxItems)
        for (const kind of f.mediaKinds) expect(media[kind], `${id} ${f.type} ${kind}`).not.toBeNull()
      }
      const kindMax = Math.max(media.image?.maxItems ?? 0, media.video?.maxItems ?? 0)
      expect(kindMax, id).toBe(media.maxItems)
    }
  })

  it('applies firstComment on the photo network only, never on a story', () => {
    const withComment = PLATFORM_IDS.filter((id) => RULES[id].options.firstComment !== null)
    expect(withComment).toEqual(['PHOTO_NET'])
    expect(RULES.PHOTO_NET.options.firstComment?.formats).not.toContain('STORY')
  })

  it('applies the network-specific body fields where the spec says', () => {
    const where = (has: (id: PlatformId) => boolean) => PLATFORM_IDS.filter(has)
    expect(where((id) => RULES[id].options.replyToMicropostId)).toEqual(['MICROBLOG_NET'])
    expect(where((id) => RULES[id].options.quoteMicropostId)).toEqual(['MICROBLOG_NET'])
    expect(where((id) => RULES[id].options.videoNetOptions !== null)).toEqual(['SHORTVIDEO_NET'])
    expect(RULES.SHORTVIDEO_NET.options.videoNetOptions?.defaultPrivacyLevel).toBe('SELF_ONLY')
    expect(where((id) => RULES[id].options.audio !== null)).toEqual(['PHOTO_NET'])
    expect(RULES.PHOTO_NET.options.audio).toEqual({
      formats: ['REEL'],
      connections: ['SOCIALGRAPH_LOGIN'],
      catalogue: ['SOCIALGRAPH_LOGIN'],
    })
    expect(where((id) => RULES[id].options.pinboardNetBoards !== null)).toEqual(['PINBOARD_NET'])
    expect(where((id) => RULES[id].options.linkUrl !== null).sort()).toEqual([
      'BLOG_NET',
      'COMMUNITY_NET',
      'FORUM_NET',
      'PINBOARD_NET',
      'SOCIALGRAPH_NET',
    ])
  })

  it('reports no insights where the spec says there are none, and no delete where there is none', () => {
    for (const id of ['PROFESSIONAL_NET', 'TEXTTHREAD_NET', 'CHAT_NET', 'SHORTVIDEO_NET'] as const) {
      expect(RULES[id].insights, id).toMatchObject({ followers: false, postMetrics: [] })
    }
    const noDelete = PLATFORM_IDS.filter((id) => !RULES[id].deleteSupported).sort()
    expect(noDelete).toEqual(['DEVBLOG_NET', 'PHOTO_NET', 'SHORTVIDEO_NET', 'TEXTTHREAD_NET'].sort())
  })

  it('allows an inbox action only where the inbox reads comments or mentions', () => {
    for (const id of PLATFORM_IDS) {
      const inbox = RULES[id].inbox
      const reads = inbox.comments || inbox.mentions
      for (const action of INBOX_ACTIONS) if (inbox[action]) expect(reads, `${id} ${action}`).toBe(true)
      if (inbox.replyMaxLength !== null) expect(inbox.reply, id).toBe(true)
    }
    expect(PLATFORM_IDS.filter((id) => !RULES[id].inbox.comments).sort()).toEqual(
      [
        'BLOG_NET',
        'CHAT_NET',
        'LOCAL_NET',
        'MESSAGING_NET',
        'PINBOARD_NET',
        'PROFESSIONAL_NET',
        'SHORTVIDEO_NET',
      ].sort(),
    )
  })

  it('lists the connections of the contract, SANDBOX included everywhere', () => {
    expect(RULES.PHOTO_NET.connections).toEqual(['SOCIALGRAPH_LOGIN', 'DIRECT_LOGIN', 'SANDBOX'])
    expect(RULES.CHAT_NET.connections).toEqual(['WEBHOOK', 'BOT_TOKEN', 'SANDBOX'])
    expect(RULES.OPENPROTOCOL_NET.connections).toEqual(['APP_PASSWORD', 'SANDBOX'])
    expect(RULES.MESSAGING_NET.connections).toEqual(['BOT_TOKEN', 'SANDBOX'])
    expect(RULES.RELAY_NET.connections).toEqual(['REMOTE_SIGNER', 'PRIVATE_KEY', 'SANDBOX'])
    expect(RULES.SITE_NET.connections).toEqual(['APP_PASSWORD', 'DIRECT_LOGIN', 'SANDBOX'])
    expect(RULES.DEVBLOG_NET.connections).toEqual(['API_KEY', 'SANDBOX'])
    for (const [id, rules] of entries()) expect(rules.connections, id).toContain('SANDBOX')
  })

  it("recommends canvases with the spec's sizes", () => {
    expect(CANVASES.feed_portrait).toEqual({ width: 1080, height: 1350 })
    expect(RULES.PHOTO_NET.recommended[0]).toMatchObject({
      format: 'IMAGE',
      canvas: 'feed_portrait',
      width: 1080,
      height: 1350,
    })
    expect(RULES.PHOTO_NET.recommended.find((r) => r.format === 'STORY')).toMatchObject({ width: 1080, height: 1920 })
    for (const [id, rules] of entries()) {
      for (const spec of rules.recommended) {
        if (spec.canvas) expect({ width: spec.width, height: spec.height }, id).toEqual(CANVASES[spec.canvas])
      }
    }
  })

  it("keeps the networks' brand names out of the served data", () => {
    const served = JSON.stringify(RULES)
    expect(served).not.toMatch(
      /instagram|tiktok|twitter|tweet|telegram|facebook|linkedin|bluesky|youtube|pinterest|mastodon|discord|\bmeta\b/i,
    )
  })
})
