/**
 * Text measured the way each network measures it (`CaptionCounting` in the rules registry).
 * Pure functions, no state: the validator and the publisher count the same way.
 *
 * URLs are found with `twitter-text`'s extractor, the reference implementation of the
 * microblog network's own link detection (bare domains with a known TLD count as links
 * there). The weights themselves are computed here rather than with `parseTweet`, because
 * the emoji table bundled with `twitter-text` stops at Emoji 11: newer ZWJ sequences would
 * be counted per code point instead of 2. Emoji are recognised with the JavaScript engine's
 * own Unicode properties, so they follow the runtime's Unicode version.
 */
import * as twitterTextModule from 'twitter-text'
import type { CaptionCounting } from './rules/schema'

// `twitter-text` is CommonJS with `module.exports = {...}`: Node's ESM loader exposes it as
// `default` only, bundlers expose the names as well. Take whichever object carries them.
const twitterText: typeof twitterTextModule =
  (twitterTextModule as unknown as { default?: typeof twitterTextModule }).default ?? twitterTextModule

/** What `countText` needs from a registry text budget (`TextBudget` satisfies it). */
export interface TextCountRule {
  counting: CaptionCounting
  /** Every URL counts exactly this many units; null or absent: URLs count like other text. */
  urlWeight?: number | null
  /** Applied before counting; `weighted` counting always normalises to NFC. */
  normalization?: 'NFC' | null
  /** A `@user@domain` mention counts as `@user`. */
  mentionDomainFree?: boolean
}

/**
 * Code point ranges that weigh 1 unit in `weighted` counting (the microblog network's
 * published counting configuration, version 3); every other code point weighs 2, and a
 * whole emoji sequence weighs 2.
 */
const LIGHT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
]
const HEAVY_WEIGHT = 2
const EMOJI_WEIGHT = 2

/** Length of `text` on a network that counts it as `rule` says. */
export function countText(text: string, rule: TextCountRule): number {
  let source = rule.normalization === 'NFC' || rule.counting === 'weighted' ? text.normalize('NFC') : text
  if (rule.mentionDomainFree) source = withoutMentionDomains(source)
  const urlWeight = rule.urlWeight ?? null
  if (urlWeight === null) return countPlain(source, rule.counting)
  // The microblog network also links bare domains (`example.com`); elsewhere (the federated
  // network's server) only links with a scheme are shortened to the fixed weight.
  const urls = findUrls(source, rule.counting === 'weighted')
  let total = urls.length * urlWeight
  let cursor = 0
  for (const [start, end] of urls) {
    total += countPlain(source.slice(cursor, start), rule.counting)
    cursor = end
  }
  return total + countPlain(source.slice(cursor), rule.counting)
}

function countPlain(text: string, counting: CaptionCounting): number {
  if (text === '') return 0
  // ASCII: every character is one unit on every counting (one code point, one byte, weight 1, never an
  // emoji), and one grapheme but CR LF, which is one.
  if (isAscii(text)) return counting === 'graphemes' ? text.length - crlfCount(text) : text.length
  switch (counting) {
    case 'utf16':
      return text.length
    case 'characters':
      return codePointCount(text)
    case 'utf8_bytes':
      return utf8Length(text)
    case 'graphemes':
      return graphemes(text).length
    case 'characters_emoji_bytes':
      return sum(graphemes(text), (g) => (isEmoji(g) ? utf8Length(g) : codePointCount(g)))
    case 'weighted':
      return sum(graphemes(text), (g) => (isEmoji(g) ? EMOJI_WEIGHT : sum(codePoints(g), codePointWeight)))
  }
}

/** Bytes of the UTF-8 encoding (the `maxBytes` caps and `utf8_bytes` counting). */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length
}

/** User-perceived characters (extended grapheme clusters). */
export function graphemeCount(text: string): number {
  return graphemes(text).length
}

export function codePointCount(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}

/** `[start, end)` UTF-16 offsets of each link in `text`, in order. */
export function findUrls(text: string, withoutProtocol: boolean): Array<[number, number]> {
  return twitterText
    .extractUrlsWithIndices(text, { extractUrlsWithoutProtocol: withoutProtocol })
    .map((u) => [u.indices[0], u.indices[1]] as [number, number])
    .sort((a, b) => a[0] - b[0])
}

/** Hashtags in `text` (`#word`, not inside a word or a URL path; at least one letter). */
export function countHashtags(text: string): number {
  if (!text.includes('#') && !text.includes('\uFF03')) return 0
  const hashtag = /(?<![\p{L}\p{M}\p{N}_&/])[#\uFF03](?=[\p{L}\p{M}\p{N}_]*[\p{L}\p{M}_])[\p{L}\p{M}\p{N}_]+/gu
  return [...text.matchAll(hashtag)].length
}

/** @mentions in `text` (`@name`, not inside an e-mail address or a word). */
export function countMentions(text: string): number {
  if (!text.includes('@') && !text.includes('\uFF20')) return 0
  const mention = /(?<![\p{L}\p{M}\p{N}_.@])[@\uFF20][A-Za-z0-9_](?:[A-Za-z0-9_.]*[A-Za-z0-9_])?/gu
  return [...text.matchAll(mention)].length
}

/** The characters of `forbidden` that occur in `text`, each once, in the order given. */
export function forbiddenCharactersIn(text: string, forbidden: readonly string[]): string[] {
  return forbidden.filter((c) => c !== '' && text.includes(c))
}

/** The first line of `text`, trimmed (what networks that derive a title from the caption use). */
export function firstLine(text: string): string {
  return (text.split(/\r\n|\r|\n/, 1)[0] ?? '').trim()
}

function withoutMentionDomains(text: string): string {
  const mention = /(?<![\p{L}\p{N}_/])@([\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*)@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu
  return text.replace(mention, '@$1')
}

/** Text of ASCII characters only: no marks, emoji or other clusters but CR LF (UAX #29). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false
  return true
}

function crlfCount(text: string): number {
  let n = 0
  for (let i = text.indexOf('\r\n'); i !== -1; i = text.indexOf('\r\n', i + 2)) n++
  return n
}

function graphemes(text: string): string[] {
  // Each ASCII character is a grapheme of its own but CR LF: no segmenter needed (making one costs more than the text).
  if (isAscii(text)) return text.match(/\r\n|[\s\S]/g) ?? []
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
  return Array.from(segmenter.segment(text), (s) => s.segment)
}

function codePoints(text: string): number[] {
  return Array.from(text, (c) => c.codePointAt(0) ?? 0)
}

function codePointWeight(cp: number): number {
  return LIGHT_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi) ? 1 : HEAVY_WEIGHT
}

/**
 * A grapheme drawn as an emoji: a pictograph in emoji presentation (by default, with U+FE0F,
 * a skin tone or inside a ZWJ sequence), a flag (regional indicator pair) or a keycap.
 * A pictograph in text presentation, such as a bare `©`, is not an emoji.
 */
function isEmoji(grapheme: string): boolean {
  if (/\p{Regional_Indicator}/u.test(grapheme) || grapheme.includes('\u20E3')) return true
  return (
    /\p{Extended_Pictographic}/u.test(grapheme) &&
    /\p{Emoji_Presentation}|\uFE0F|\p{Emoji_Modifier}|\u200D/u.test(grapheme)
  )
}

function sum<T>(items: readonly T[], weight: (item: T) => number): number {
  let total = 0
  for (const item of items) total += weight(item)
  return total
}
