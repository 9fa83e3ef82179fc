import { describe, expect, it } from 'vitest'
import {
  codePointCount,
  countHashtags,
  countMentions,
  countText,
  findUrls,
  firstLine,
  forbiddenCharactersIn,
  graphemeCount,
  utf8Length,
} from '../../src/domain/text-count'
import { RULES } from '../../src/domain/rules/index'

const FAMILY = '👨\u200D👩\u200D👧\u200D👦' // one grapheme, 7 code points, 11 UTF-16 units, 25 bytes
const HANDSHAKE = '🫱🏻\u200D🫲🏿' // Emoji 14 ZWJ sequence, newer than twitter-text's own emoji table
const E_COMBINING = 'e\u0301' // "é" decomposed; NFC makes it one code point
const LONG_URL = `https://example.com/${'p'.repeat(200)}`

describe('countText: weighted (microblog network, twitter-text config v3)', () => {
  const microblog = RULES.MICROBLOG_NET.caption

  it('counts Latin text 1 per character, up to the 280 budget', () => {
    expect(countText('a'.repeat(280), microblog)).toBe(280)
    expect(countText('a'.repeat(281), microblog)).toBe(281)
  })

  it('counts every URL 23, however long, with or without a scheme', () => {
    expect(countText(LONG_URL, microblog)).toBe(23)
    expect(countText('see example.com now', microblog)).toBe(4 + 23 + 4)
    expect(countText('https://a.co', microblog)).toBe(23)
    expect(countText(`${LONG_URL} ${LONG_URL}`, microblog)).toBe(47)
  })

  it('counts CJK characters 2 each', () => {
    expect(countText('日本語', microblog)).toBe(6)
    expect(countText('한국어 text', microblog)).toBe(6 + 5)
  })

  it('counts a whole emoji sequence 2, including sequences newer than twitter-text', () => {
    expect(countText(FAMILY, microblog)).toBe(2)
    expect(countText(HANDSHAKE, microblog)).toBe(2)
    expect(countText('🇫🇷', microblog)).toBe(2)
    expect(countText('1\uFE0F\u20E3', microblog)).toBe(2)
    expect(countText('hi 😀', microblog)).toBe(5)
  })

  it('counts general punctuation in the light ranges 1, other symbols 2', () => {
    expect(countText('\u2014\u2019', microblog)).toBe(2) // em dash, right quotation mark
    expect(countText('\u2026', microblog)).toBe(2) // the ellipsis is outside the ranges
    expect(countText('\u2122', microblog)).toBe(2) // so is the trade mark sign
  })

  it('normalises to NFC before counting', () => {
    expect(countText(E_COMBINING, microblog)).toBe(1)
  })

  it('adds it all up: 250 Latin + space + URL + space + 3 CJK = 281', () => {
    const text = `${'a'.repeat(250)} ${LONG_URL} 日本語`
    expect(countText(text, microblog)).toBe(250 + 1 + 23 + 1 + 6)
  })

  it('counts URLs as text when the rule gives them no fixed weight', () => {
    expect(countText('https://example.com', { counting: 'weighted' })).toBe(19)
  })
})

describe('countText: other countings', () => {
  it('graphemes: an emoji family is 1, a decomposed accent is 1 (open-protocol network)', () => {
    const rule = RULES.OPENPROTOCOL_NET.caption
    expect(countText(FAMILY.repeat(300), rule)).toBe(300)
    expect(countText(E_COMBINING, rule)).toBe(1)
    expect(countText('🇫🇷🇩🇪', rule)).toBe(2)
  })

  it('graphemes with URL weight and domain-free mentions (federated network)', () => {
    const rule = RULES.FEDERATED_NET.caption
    expect(countText(`hi ${LONG_URL}`, rule)).toBe(3 + 23)
    expect(countText('@alice@mastodon.social', rule)).toBe(6)
    // only links with a scheme are shortened there
    expect(countText('example.com', rule)).toBe(11)
  })

  it('utf16: an emoji outside the BMP is 2 (short-video network)', () => {
    expect(countText('😀', { counting: 'utf16' })).toBe(2)
    expect(countText('a'.repeat(2200), RULES.SHORTVIDEO_NET.caption)).toBe(2200)
  })

  it('characters: code points, as sent (no normalisation)', () => {
    expect(countText('😀', { counting: 'characters' })).toBe(1)
    expect(countText(E_COMBINING, { counting: 'characters' })).toBe(2)
    expect(countText(FAMILY, { counting: 'characters' })).toBe(7)
  })

  it('characters_emoji_bytes: code points, each emoji its UTF-8 bytes (text-thread network)', () => {
    const rule = RULES.TEXTTHREAD_NET.caption
    expect(countText('hi 😀', rule)).toBe(3 + 4)
    expect(countText(FAMILY, rule)).toBe(25)
    expect(countText('\u2764\uFE0F', rule)).toBe(6)
    expect(countText('©', rule)).toBe(1) // text presentation: not an emoji
    expect(countText('日本', rule)).toBe(2)
  })

  it('utf8_bytes: bytes of the encoding (video-sharing network description)', () => {
    const rule = RULES.VIDEOSHARE_NET.caption
    expect(countText('é', rule)).toBe(2)
    expect(countText('日', rule)).toBe(3)
    expect(countText('😀', rule)).toBe(4)
  })

  it('an empty text counts 0 whatever the counting', () => {
    for (const counting of [
      'weighted',
      'graphemes',
      'utf16',
      'characters',
      'characters_emoji_bytes',
      'utf8_bytes',
    ] as const) {
      expect(countText('', { counting, urlWeight: 23 })).toBe(0)
    }
  })
})

describe('text helpers', () => {
  it('utf8Length, graphemeCount and codePointCount', () => {
    expect(utf8Length(FAMILY)).toBe(25)
    expect(utf8Length('abc')).toBe(3)
    expect(graphemeCount(`${FAMILY}a${E_COMBINING}`)).toBe(3)
    expect(codePointCount('a😀')).toBe(2)
  })

  it('counts ASCII text as the Unicode segmenter does: one grapheme per character, CR LF one', () => {
    const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('') + 'a\r\nb\n\rc\r\n\r\n'
    const segmented = (text: string) =>
      [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length
    expect(graphemeCount(ascii)).toBe(segmented(ascii))
    expect(graphemeCount('a\r\nb')).toBe(3)
    for (const counting of ['graphemes', 'weighted', 'characters_emoji_bytes'] as const)
      expect(countText('line one\r\nline two #tag @name', { counting })).toBe(counting === 'graphemes' ? 28 : 29)
    // Every ASCII character, and CR LF, on every counting: as the segmenter, code points and bytes count them.
    const countings = ['utf16', 'characters', 'utf8_bytes', 'graphemes', 'characters_emoji_bytes', 'weighted'] as const
    for (const counting of countings)
      expect(countText(ascii, { counting })).toBe(counting === 'graphemes' ? segmented(ascii) : ascii.length)
    expect(countText('#1*\r\n\r\n', { counting: 'weighted' })).toBe(7)
  })

  it('findUrls gives UTF-16 offsets, with or without bare domains', () => {
    const text = 'go to example.com or https://x.com/a'
    expect(findUrls(text, true)).toEqual([
      [6, 17],
      [21, 36],
    ])
    expect(findUrls(text, false)).toEqual([[21, 36]])
  })

  it('counts hashtags, not inside words, URLs or all-digit', () => {
    expect(countHashtags('#one #two c#three #4 #4u https://x.com/#frag #日本')).toBe(4)
  })

  it('counts @mentions, not e-mail addresses', () => {
    expect(countMentions('@alice hi bob@example.com @b.c @_x')).toBe(3)
  })

  it('finds forbidden characters and the first line', () => {
    expect(forbiddenCharactersIn('a <b> c', ['<', '>', '&'])).toEqual(['<', '>'])
    expect(forbiddenCharactersIn('fine', ['<'])).toEqual([])
    expect(firstLine('  Title here \nbody')).toBe('Title here')
    expect(firstLine('')).toBe('')
  })
})
