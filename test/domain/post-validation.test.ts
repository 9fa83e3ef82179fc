import { describe, expect, it } from 'vitest'
import type { Connection, PlatformId } from '../../src/domain/vocabulary'
import { RULES } from '../../src/domain/rules/index'
import {
  accountsWithoutBoard,
  captionFor,
  micropostIdFrom,
  validatePostContent,
  type PostContent,
  type ValidationAccount,
  type ValidationIntent,
  type ValidationMedia,
  type Violation,
} from '../../src/domain/post-validation'

const acc = (
  platform: PlatformId,
  connection?: Connection,
  id = `acc_${platform.toLowerCase()}`,
): ValidationAccount => ({
  id,
  platform,
  connection: connection ?? RULES[platform].connections[0]!,
})
const img = (id: string, over: Partial<ValidationMedia> = {}): ValidationMedia => ({
  id,
  type: 'IMAGE',
  mimeType: 'image/jpeg',
  sizeBytes: 500_000,
  width: 1080,
  height: 1350,
  durationSec: null,
  ...over,
})
const vid = (id: string, over: Partial<ValidationMedia> = {}): ValidationMedia => ({
  id,
  type: 'VIDEO',
  mimeType: 'video/mp4',
  sizeBytes: 10_000_000,
  width: 1080,
  height: 1920,
  durationSec: 30,
  ...over,
})

interface Case extends Partial<PostContent> {
  accounts: ValidationAccount[]
  media?: ValidationMedia[]
  intent?: ValidationIntent
}
function validate({ accounts, media = [], intent = 'publish', ...content }: Case): Violation[] {
  const full: PostContent = {
    type: 'IMAGE',
    caption: 'Hello',
    captionOverrides: null,
    mediaIds: media.map((m) => m.id),
    threadParts: null,
    firstComment: null,
    replyToMicropostId: null,
    quoteMicropostId: null,
    videoNetOptions: null,
    audio: null,
    pinboardNetBoards: null,
    pinboardNetOptions: null,
    linkUrl: null,
    title: null,
    destinations: null,
    targetOptions: null,
    ...content,
  }
  return validatePostContent({ content: full, accounts, media, intent })
}
/** The parts of each violation a test pins down. */
const brief = (vs: Violation[]) =>
  vs.map(({ code, path, platform, limit, actual }) => ({ code, path, platform, limit, actual }))

const LONG_URL = `https://example.com/${'p'.repeat(80)}`
const FAMILY = '👨\u200D👩\u200D👧\u200D👦'

describe('captions', () => {
  it('MICROBLOG_NET: 280 weighted with a URL counted 23 and CJK counted 2', () => {
    const ok = `${'a'.repeat(249)} ${LONG_URL} 日本語` // 249 + 1 + 23 + 1 + 6 = 280
    expect(validate({ accounts: [acc('MICROBLOG_NET')], caption: ok })).toEqual([])
    const vs = validate({ accounts: [acc('MICROBLOG_NET')], caption: `a${ok}` })
    expect(brief(vs)).toEqual([
      { code: 'caption_too_long', path: 'caption', platform: 'MICROBLOG_NET', limit: 280, actual: 281 },
    ])
    expect(vs[0]!.message).toMatch(/^Caption is 281 characters; MICROBLOG_NET allows 280 \(every link counts 23/)
  })

  it('OPENPROTOCOL_NET: 300 graphemes (an emoji family is 1), and 3000 bytes', () => {
    const accounts = [acc('OPENPROTOCOL_NET')]
    expect(validate({ accounts, caption: `${'a'.repeat(299)}${FAMILY}` })).toEqual([])
    expect(brief(validate({ accounts, caption: `${'a'.repeat(300)}${FAMILY}` }))).toEqual([
      { code: 'caption_too_long', path: 'caption', platform: 'OPENPROTOCOL_NET', limit: 300, actual: 301 },
    ])
    expect(validate({ accounts, caption: FAMILY.repeat(120) })).toEqual([]) // 120 graphemes, 3000 bytes
    expect(brief(validate({ accounts, caption: FAMILY.repeat(121) }))).toEqual([
      { code: 'caption_too_long', path: 'caption', platform: 'OPENPROTOCOL_NET', limit: 3000, actual: 3025 },
    ])
  })

  it('applies each platform its own override, else the base caption', () => {
    const accounts = [acc('MICROBLOG_NET'), acc('PHOTO_NET')]
    const media = [img('m1')]
    const long = 'a'.repeat(400)
    expect(brief(validate({ accounts, media, caption: long }))).toEqual([
      { code: 'caption_too_long', path: 'caption', platform: 'MICROBLOG_NET', limit: 280, actual: 400 },
    ])
    expect(validate({ accounts, media, caption: long, captionOverrides: { MICROBLOG_NET: 'short' } })).toEqual([])
    const vs = validate({ accounts, media, caption: 'fine', captionOverrides: { MICROBLOG_NET: 'b'.repeat(300) } })
    expect(brief(vs)).toEqual([
      {
        code: 'caption_too_long',
        path: 'captionOverrides.MICROBLOG_NET',
        platform: 'MICROBLOG_NET',
        limit: 280,
        actual: 300,
      },
    ])
  })

  it('checks content rules in a draft too (only what can be added later waits for publish)', () => {
    expect(brief(validate({ accounts: [acc('MICROBLOG_NET')], caption: 'a'.repeat(281), intent: 'draft' }))).toEqual([
      { code: 'caption_too_long', path: 'caption', platform: 'MICROBLOG_NET', limit: 280, actual: 281 },
    ])
  })

  it('captionFor: the override, else the caption, else empty', () => {
    const base = { caption: 'base', captionOverrides: { MICROBLOG_NET: 'mb', PHOTO_NET: '' } } as PostContent
    expect(captionFor(base, 'MICROBLOG_NET')).toBe('mb')
    expect(captionFor(base, 'PHOTO_NET')).toBe('')
    expect(captionFor(base, 'CHAT_NET')).toBe('base')
    expect(captionFor({ caption: null, captionOverrides: null } as PostContent, 'CHAT_NET')).toBe('')
  })

  it('uses the media-dependent budget (MESSAGING_NET: 4096 text-only, 1024 with media)', () => {
    const accounts = [acc('MESSAGING_NET')]
    expect(validate({ accounts, caption: 'a'.repeat(4096) })).toEqual([])
    expect(brief(validate({ accounts, caption: 'a'.repeat(1025), media: [img('m1')] }))).toEqual([
      { code: 'caption_too_long', path: 'caption', platform: 'MESSAGING_NET', limit: 1024, actual: 1025 },
    ])
  })

  it('caps hashtags on PHOTO_NET (5) and reports refused characters (VIDEOSHARE_NET)', () => {
    const photo = validate({ accounts: [acc('PHOTO_NET')], media: [img('m1')], caption: '#a #b #c #d #e #f' })
    expect(brief(photo)).toEqual([
      { code: 'caption_too_long', path: 'caption', platform: 'PHOTO_NET', limit: 5, actual: 6 },
    ])
    const video = validate({ accounts: [acc('VIDEOSHARE_NET')], media: [vid('v1')], caption: 'Title\n<b>bold</b>' })
    expect(brief(video)).toEqual([
      { code: 'invalid_option', path: 'caption', platform: 'VIDEOSHARE_NET', limit: undefined, actual: undefined },
    ])
  })

  it('needs text to publish a text-only post, and a title line on VIDEOSHARE_NET; drafts need neither', () => {
    const empty = validate({ accounts: [acc('MICROBLOG_NET')], caption: '  ' })
    expect(brief(empty)).toEqual([
      { code: 'invalid_option', path: 'caption', platform: 'MICROBLOG_NET', limit: undefined, actual: undefined },
    ])
    expect(validate({ accounts: [acc('MICROBLOG_NET')], caption: null, intent: 'draft' })).toEqual([])
    const untitled = validate({ accounts: [acc('VIDEOSHARE_NET')], media: [vid('v1')], caption: '' })
    expect(brief(untitled).map((v) => v.path)).toEqual(['caption'])
    expect(validate({ accounts: [acc('VIDEOSHARE_NET')], media: [vid('v1')], caption: '', intent: 'draft' })).toEqual(
      [],
    )
  })
  it('takes a titled link with no caption where the network has a title field and links (a link post)', () => {
    const forum = acc('FORUM_NET')
    const link = {
      accounts: [forum],
      caption: '',
      linkUrl: 'https://example.com/a',
      destinations: { [forum.id]: 'sr' },
    }
    expect(validate({ ...link, title: 'A link worth reading' })).toEqual([])
    expect(brief(validate(link)).map((v) => v.path)).toEqual(['caption', 'title'])
    expect(brief(validate({ ...link, accounts: [acc('MICROBLOG_NET')], title: 'A title' })).map((v) => v.path)).toEqual(
      ['caption'],
    )
  })
})

describe('threadParts', () => {
  it('refuses more parts than thread.maxParts (25) on a thread platform', () => {
    const parts = Array.from({ length: 26 }, (_, i) => `part ${i}`)
    expect(brief(validate({ accounts: [acc('MICROBLOG_NET')], threadParts: parts }))).toEqual([
      { code: 'thread_too_long', path: 'threadParts', platform: 'MICROBLOG_NET', limit: 25, actual: 26 },
    ])
    expect(validate({ accounts: [acc('MICROBLOG_NET')], threadParts: parts.slice(0, 25) })).toEqual([])
  })

  it('counts each part with the platform part budget, naming its index', () => {
    const parts = ['one', 'two', 'a'.repeat(281), 'x'.repeat(301)]
    const vs = validate({ accounts: [acc('MICROBLOG_NET'), acc('OPENPROTOCOL_NET')], threadParts: parts })
    expect(brief(vs)).toEqual([
      { code: 'thread_too_long', path: 'threadParts.2', platform: 'MICROBLOG_NET', limit: 280, actual: 281 },
      { code: 'thread_too_long', path: 'threadParts.3', platform: 'MICROBLOG_NET', limit: 280, actual: 301 },
      { code: 'thread_too_long', path: 'threadParts.3', platform: 'OPENPROTOCOL_NET', limit: 300, actual: 301 },
    ])
    expect(vs[0]!.message).toContain('Thread part 3 (threadParts.2) is 281 characters; MICROBLOG_NET allows 280')
  })

  it('ignores parts on platforms without a thread model, refuses empty parts where published', () => {
    const many = Array.from({ length: 40 }, () => 'a'.repeat(5000))
    expect(validate({ accounts: [acc('PHOTO_NET')], media: [img('m1')], threadParts: many })).toEqual([])
    expect(brief(validate({ accounts: [acc('CHAT_NET')], threadParts: ['ok', ' '] }))).toEqual([
      { code: 'invalid_option', path: 'threadParts.1', platform: undefined, limit: undefined, actual: undefined },
    ])
  })
})

describe('pinboard', () => {
  const pin = acc('PINBOARD_NET')
  const board = { pinboardNetBoards: { [pin.id]: 'board_1' } }
  it('refuses a title of 101 characters, accepts 100', () => {
    expect(
      validate({ accounts: [pin], media: [img('m1')], ...board, pinboardNetOptions: { title: 't'.repeat(100) } }),
    ).toEqual([])
    expect(
      brief(
        validate({ accounts: [pin], media: [img('m1')], ...board, pinboardNetOptions: { title: 't'.repeat(101) } }),
      ),
    ).toEqual([
      {
        code: 'pin_title_too_long',
        path: 'pinboardNetOptions.title',
        platform: 'PINBOARD_NET',
        limit: 100,
        actual: 101,
      },
    ])
  })

  it('refuses a description (the caption) of 801 characters, accepts 800', () => {
    expect(validate({ accounts: [pin], media: [img('m1')], ...board, caption: 'd'.repeat(800) })).toEqual([])
    expect(brief(validate({ accounts: [pin], media: [img('m1')], ...board, caption: 'd'.repeat(801) }))).toEqual([
      { code: 'caption_too_long', path: 'caption', platform: 'PINBOARD_NET', limit: 800, actual: 801 },
    ])
  })

  it('lets a draft save without a board but needs one to schedule or publish, and refuses boards for other accounts', () => {
    const other = acc('PHOTO_NET')
    expect(validate({ accounts: [pin], media: [img('m1')], intent: 'draft' })).toEqual([])
    expect(brief(validate({ accounts: [pin], media: [img('m1')] })).map((v) => [v.code, v.path, v.platform])).toEqual([
      ['invalid_option', `pinboardNetBoards.${pin.id}`, 'PINBOARD_NET'],
    ])
    const input = {
      accounts: [pin, other],
      media: [img('m1')],
      intent: 'draft' as const,
      pinboardNetBoards: { [other.id]: 'b1', acc_nobody: 'b2' },
    }
    expect(brief(validate(input)).map((v) => [v.code, v.path])).toEqual([
      ['invalid_option', `pinboardNetBoards.${other.id}`],
      ['invalid_option', 'pinboardNetBoards.acc_nobody'],
    ])
    expect(
      accountsWithoutBoard({
        accounts: [pin, other],
        content: { pinboardNetBoards: { [other.id]: 'b1' } } as unknown as PostContent,
      }),
    ).toEqual([pin.id])
    expect(validate({ accounts: [pin], media: [img('m1')], ...board })).toEqual([])
  })
})

describe('linkUrl and micropost ids', () => {
  it('refuses a linkUrl that is not http(s)', () => {
    const accounts = [acc('SOCIALGRAPH_NET')]
    expect(validate({ accounts, linkUrl: 'https://example.com/page' })).toEqual([])
    expect(brief(validate({ accounts, linkUrl: 'ftp://example.com/file' }))).toEqual([
      { code: 'invalid_option', path: 'linkUrl', platform: undefined, limit: undefined, actual: undefined },
    ])
    expect(validate({ accounts, linkUrl: 'example.com' })).toHaveLength(1)
    const longLink = `https://e.com/${'x'.repeat(2040)}` // 2054 characters; the pin destination takes 2048
    expect(
      brief(validate({ accounts: [acc('PINBOARD_NET')], media: [img('m1')], intent: 'draft', linkUrl: longLink })),
    ).toEqual([{ code: 'invalid_option', path: 'linkUrl', platform: 'PINBOARD_NET', limit: 2048, actual: 2054 }])
    expect(validate({ accounts, linkUrl: longLink })).toEqual([]) // no cap where the network states none
  })

  it('parses an id or a post URL', () => {
    expect(micropostIdFrom('1234567890')).toBe('1234567890')
    expect(micropostIdFrom('https://x.com/jack/status/20')).toBe('20')
    expect(micropostIdFrom('https://twitter.com/jack/status/20?s=46&t=abc')).toBe('20')
    expect(micropostIdFrom('https://mobile.twitter.com/jack/status/20/photo/1')).toBe('20')
    expect(micropostIdFrom('x.com/jack/status/20')).toBe('20')
    expect(micropostIdFrom('https://x.com/i/web/status/1799')).toBe('1799')
    for (const bad of [
      'hello',
      'https://example.com/jack/status/20',
      'https://x.com/jack',
      'https://x.com/status/20',
      'ftp://x.com/a/status/1',
      'https://x.com/a/status/abc',
    ]) {
      expect(micropostIdFrom(bad), bad).toBeNull()
    }
  })

  it('refuses an unparseable replyToMicropostId or quoteMicropostId', () => {
    const accounts = [acc('MICROBLOG_NET')]
    expect(validate({ accounts, replyToMicropostId: 'https://x.com/jack/status/20', quoteMicropostId: '42' })).toEqual(
      [],
    )
    expect(
      brief(validate({ accounts, replyToMicropostId: 'not a post', quoteMicropostId: 'https://x.com/jack' })).map(
        (v) => v.path,
      ),
    ).toEqual(['replyToMicropostId', 'quoteMicropostId'])
  })
})

describe('network options', () => {
  it('refuses videoNetOptions for an account that is not a short-video account of the post', () => {
    const photo = acc('PHOTO_NET')
    const vs = validate({
      accounts: [photo],
      media: [img('m1')],
      videoNetOptions: { [photo.id]: { privacyLevel: 'SELF_ONLY' }, acc_x: {} },
    })
    expect(vs.map((v) => [v.code, v.path, v.accountId])).toEqual([
      ['invalid_option', `videoNetOptions.${photo.id}`, photo.id],
      ['invalid_option', 'videoNetOptions.acc_x', 'acc_x'],
    ])
  })

  it('checks privacyLevel against the short-video network values', () => {
    const tv = acc('SHORTVIDEO_NET')
    const base = { accounts: [tv], media: [vid('v1')] }
    expect(
      validate({ ...base, videoNetOptions: { [tv.id]: { privacyLevel: 'PUBLIC_TO_EVERYONE', disableDuet: true } } }),
    ).toEqual([])
    expect(brief(validate({ ...base, videoNetOptions: { [tv.id]: { privacyLevel: 'PUBLIC' } } }))).toEqual([
      {
        code: 'invalid_option',
        path: `videoNetOptions.${tv.id}.privacyLevel`,
        platform: 'SHORTVIDEO_NET',
        limit: undefined,
        actual: undefined,
      },
    ])
  })

  it('accepts audio on a reel for a SOCIALGRAPH_LOGIN photo account only', () => {
    const audio = { audioId: 'a1', audioVolume: 0.5 }
    const reel = { type: 'REEL' as const, media: [vid('v1')], audio }
    expect(validate({ ...reel, accounts: [acc('PHOTO_NET', 'SOCIALGRAPH_LOGIN')] })).toEqual([])
    expect(
      validate({
        ...reel,
        accounts: [acc('PHOTO_NET', 'SOCIALGRAPH_LOGIN', 'a1'), acc('PHOTO_NET', 'DIRECT_LOGIN', 'a2')],
      }),
    ).toEqual([])
    expect(brief(validate({ ...reel, accounts: [acc('PHOTO_NET', 'DIRECT_LOGIN')] }))).toEqual([
      { code: 'invalid_option', path: 'audio', platform: 'PHOTO_NET', limit: undefined, actual: undefined },
    ])
    expect(
      validate({ ...reel, type: 'IMAGE', accounts: [acc('PHOTO_NET', 'SOCIALGRAPH_LOGIN')] }).map((v) => v.path),
    ).toEqual(['audio'])
    expect(validate({ ...reel, accounts: [acc('SHORTVIDEO_NET')] }).map((v) => v.path)).toEqual(['audio'])
  })

  it('refuses a first comment on a PHOTO_NET story, checks its length, ignores it elsewhere', () => {
    const photo = acc('PHOTO_NET')
    expect(brief(validate({ type: 'STORY', accounts: [photo], media: [img('m1')], firstComment: 'hi' }))).toEqual([
      { code: 'invalid_option', path: 'firstComment', platform: 'PHOTO_NET', limit: undefined, actual: undefined },
    ])
    expect(validate({ accounts: [photo], media: [img('m1')], firstComment: 'c'.repeat(2200) })).toEqual([])
    expect(brief(validate({ accounts: [photo], media: [img('m1')], firstComment: 'c'.repeat(2201) }))).toEqual([
      { code: 'caption_too_long', path: 'firstComment', platform: 'PHOTO_NET', limit: 2200, actual: 2201 },
    ])
    expect(validate({ type: 'STORY', accounts: [acc('MICROBLOG_NET')], firstComment: 'c'.repeat(5000) })).toEqual([])
  })

  it('refuses captionOverrides keys that are not platform ids', () => {
    const overrides = { NOT_A_NET: 'x' } as unknown as PostContent['captionOverrides']
    expect(validate({ accounts: [acc('CHAT_NET')], captionOverrides: overrides }).map((v) => v.path)).toEqual([
      'captionOverrides.NOT_A_NET',
    ])
  })
})

describe('media', () => {
  it('refuses a video in a format that takes images only (PINBOARD_NET carousel, PHOTO_NET reel inverse)', () => {
    const vs = validate({ type: 'CAROUSEL', accounts: [acc('PINBOARD_NET')], media: [img('m1'), vid('v1')] })
    expect(vs.filter((v) => v.path === 'mediaIds.1').map((v) => v.code)).toEqual(['media_not_supported'])
    expect(vs.find((v) => v.path === 'mediaIds.1')!.message).toContain('a CAROUSEL on PINBOARD_NET takes images only')
    const reel = validate({ type: 'REEL', accounts: [acc('PHOTO_NET')], media: [img('m1')] })
    expect(brief(reel)).toEqual([
      { code: 'media_not_supported', path: 'mediaIds.0', platform: 'PHOTO_NET', limit: undefined, actual: undefined },
    ])
  })

  it('refuses too many items (MICROBLOG_NET 4, PHOTO_NET carousel 10)', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((id) => img(id, { mimeType: 'image/png' }))
    expect(brief(validate({ accounts: [acc('MICROBLOG_NET')], media: five }))).toEqual([
      { code: 'media_not_supported', path: 'mediaIds', platform: 'MICROBLOG_NET', limit: 4, actual: 5 },
    ])
    const eleven = Array.from({ length: 11 }, (_, i) => img(`m${i}`))
    expect(brief(validate({ type: 'CAROUSEL', accounts: [acc('PHOTO_NET')], media: eleven }))).toEqual([
      { code: 'media_not_supported', path: 'mediaIds', platform: 'PHOTO_NET', limit: 10, actual: 11 },
    ])
  })

  it('needs media on PHOTO_NET to publish, not in a draft', () => {
    expect(validate({ accounts: [acc('PHOTO_NET')], intent: 'draft' })).toEqual([])
    expect(brief(validate({ accounts: [acc('PHOTO_NET')], intent: 'publish' }))).toEqual([
      { code: 'media_not_supported', path: 'mediaIds', platform: 'PHOTO_NET', limit: 1, actual: 0 },
    ])
  })

  it('needs a carousel minimum (2) to publish, not in a draft', () => {
    const input = { type: 'CAROUSEL' as const, accounts: [acc('PHOTO_NET')], media: [img('m1')] }
    expect(validate({ ...input, intent: 'draft' })).toEqual([])
    expect(brief(validate(input))).toEqual([
      { code: 'media_not_supported', path: 'mediaIds', platform: 'PHOTO_NET', limit: 2, actual: 1 },
    ])
  })

  it('checks MIME types, with wildcards, and size caps with per-MIME overrides', () => {
    expect(
      brief(validate({ accounts: [acc('PHOTO_NET')], media: [img('m1', { mimeType: 'image/png' })] })).map(
        (v) => v.path,
      ),
    ).toEqual(['mediaIds.0'])
    expect(validate({ accounts: [acc('CHAT_NET')], media: [img('m1', { mimeType: 'image/avif' })] })).toEqual([])
    expect(
      validate({
        accounts: [acc('VIDEOSHARE_NET')],
        caption: 'T',
        media: [vid('v1', { mimeType: 'video/x-matroska' })],
      }),
    ).toEqual([])
    const gif = img('g', { mimeType: 'image/gif', sizeBytes: 12_000_000 })
    expect(validate({ accounts: [acc('MICROBLOG_NET')], media: [gif] })).toEqual([])
    const png = img('p', { mimeType: 'image/png', sizeBytes: 6_000_000 })
    expect(brief(validate({ accounts: [acc('MICROBLOG_NET')], media: [png] }))).toEqual([
      {
        code: 'media_not_supported',
        path: 'mediaIds.0',
        platform: 'MICROBLOG_NET',
        limit: 5_000_000,
        actual: 6_000_000,
      },
    ])
  })

  it('checks dimensions, aspect ratio and pixel caps, never failing unknown values', () => {
    const narrow = img('m1', { width: 1080, height: 2160 }) // 0.5, feed allows 0.8 to 1.91
    expect(brief(validate({ accounts: [acc('PHOTO_NET')], media: [narrow] }))).toEqual([
      { code: 'media_not_supported', path: 'mediaIds.0', platform: 'PHOTO_NET', limit: 0.8, actual: 0.5 },
    ])
    expect(validate({ type: 'STORY', accounts: [acc('PHOTO_NET')], media: [narrow] })).toEqual([]) // no feed ratio on a story
    expect(validate({ accounts: [acc('PHOTO_NET')], media: [img('m1', { width: null, height: null })] })).toEqual([])
    expect(validate({ accounts: [acc('PHOTO_NET')], media: [img('m1', { width: 1080, height: 566 })] })).toEqual([]) // 1.908
    const big = img('m1', { width: 1920, height: 1440 }) // 2,764,800 px > 1920 x 1080
    expect(brief(validate({ accounts: [acc('SHORTVIDEO_NET')], media: [big] }))).toEqual([
      {
        code: 'media_not_supported',
        path: 'mediaIds.0',
        platform: 'SHORTVIDEO_NET',
        limit: 2_073_600,
        actual: 2_764_800,
      },
    ])
    expect(
      brief(validate({ accounts: [acc('PHOTO_NET')], media: [img('m1', { width: 300, height: 300 })] }))[0],
    ).toMatchObject({ limit: 320, actual: 300 })
  })

  it('checks video duration, with the format cap replacing the network one', () => {
    expect(
      brief(
        validate({
          accounts: [acc('MICROBLOG_NET')],
          media: [vid('v1', { durationSec: 150, width: 1280, height: 720 })],
        }),
      ),
    ).toEqual([{ code: 'media_not_supported', path: 'mediaIds.0', platform: 'MICROBLOG_NET', limit: 140, actual: 150 }])
    expect(validate({ accounts: [acc('MICROBLOG_NET')], media: [vid('v1', { durationSec: null })] })).toEqual([])
    expect(
      brief(validate({ type: 'STORY', accounts: [acc('PHOTO_NET')], media: [vid('v1', { durationSec: 61 })] })),
    ).toEqual([{ code: 'media_not_supported', path: 'mediaIds.0', platform: 'PHOTO_NET', limit: 60, actual: 61 }])
    expect(validate({ type: 'REEL', accounts: [acc('PHOTO_NET')], media: [vid('v1', { durationSec: 61 })] })).toEqual(
      [],
    )
    expect(
      brief(validate({ type: 'REEL', accounts: [acc('PHOTO_NET')], media: [vid('v1', { durationSec: 2 })] }))[0],
    ).toMatchObject({ limit: 3, actual: 2 })
  })

  it('refuses mixing where the network does not mix, and a second video on MICROBLOG_NET', () => {
    expect(brief(validate({ accounts: [acc('MICROBLOG_NET')], media: [img('m1'), vid('v1')] }))).toEqual([
      { code: 'media_not_supported', path: 'mediaIds', platform: 'MICROBLOG_NET', limit: undefined, actual: undefined },
    ])
    expect(brief(validate({ accounts: [acc('MICROBLOG_NET')], media: [vid('v1'), vid('v2')] }))).toEqual([
      { code: 'media_not_supported', path: 'mediaIds', platform: 'MICROBLOG_NET', limit: 1, actual: 2 },
    ])
    expect(validate({ accounts: [acc('MESSAGING_NET')], caption: 'x', media: [img('m1'), vid('v1')] })).toEqual([])
  })

  it('falls back to the network default format instead of failing', () => {
    // MICROBLOG_NET honours no REEL: the post is published as IMAGE there, images welcome.
    expect(
      validate({ type: 'REEL', accounts: [acc('MICROBLOG_NET')], media: [img('m1', { mimeType: 'image/png' })] }),
    ).toEqual([])
  })

  it('needs equal dimensions for a pinboard carousel; reports an unknown media id', () => {
    const vs = validate({
      type: 'CAROUSEL',
      accounts: [acc('PINBOARD_NET')],
      intent: 'draft',
      media: [img('a'), img('b', { width: 1000, height: 1000 })],
    })
    expect(brief(vs)).toEqual([
      {
        code: 'media_not_supported',
        path: 'mediaIds.1',
        platform: 'PINBOARD_NET',
        limit: undefined,
        actual: undefined,
      },
    ])
    const missing = validatePostContent({
      content: {
        type: 'IMAGE',
        caption: 'x',
        captionOverrides: null,
        mediaIds: ['med_gone'],
        threadParts: null,
        firstComment: null,
        replyToMicropostId: null,
        quoteMicropostId: null,
        videoNetOptions: null,
        audio: null,
        pinboardNetBoards: null,
        pinboardNetOptions: null,
        linkUrl: null,
        title: null,
        destinations: null,
        targetOptions: null,
      },
      accounts: [acc('CHAT_NET')],
      media: [],
      intent: 'draft',
    })
    expect(brief(missing)).toEqual([
      { code: 'media_not_found', path: 'mediaIds.0', platform: undefined, limit: undefined, actual: undefined },
    ])
  })
})

describe('all at once', () => {
  it('returns every violation together, each naming its field and platform', () => {
    const tv = acc('SHORTVIDEO_NET')
    const vs = validate({
      type: 'REEL',
      accounts: [acc('MICROBLOG_NET'), acc('PHOTO_NET', 'DIRECT_LOGIN'), acc('PINBOARD_NET'), tv],
      media: [img('m1', { mimeType: 'image/png' })],
      caption: 'a'.repeat(900),
      threadParts: Array.from({ length: 30 }, () => 'part'),
      linkUrl: 'ftp://example.com',
      replyToMicropostId: 'nope',
      audio: { audioId: 'a1' },
      videoNetOptions: { [tv.id]: { privacyLevel: 'EVERYONE' } },
      pinboardNetOptions: { title: 'T'.repeat(101) },
    })
    const seen = vs.map((v) => `${v.code} ${v.path}${v.platform ? ` ${v.platform}` : ''}`)
    expect(seen).toEqual(
      expect.arrayContaining([
        'caption_too_long caption MICROBLOG_NET',
        'caption_too_long caption PINBOARD_NET',
        'thread_too_long threadParts MICROBLOG_NET',
        'media_not_supported mediaIds.0 PHOTO_NET', // an image in a REEL
        'media_not_supported mediaIds.0 SHORTVIDEO_NET', // PNG refused
        'invalid_option linkUrl',
        'invalid_option replyToMicropostId',
        'invalid_option audio PHOTO_NET',
        `invalid_option videoNetOptions.${tv.id}.privacyLevel SHORTVIDEO_NET`,
        'pin_title_too_long pinboardNetOptions.title PINBOARD_NET',
      ]),
    )
    expect(vs.length).toBeGreaterThanOrEqual(10)
    for (const v of vs) expect(v.message.length).toBeGreaterThan(10)
  })
})
