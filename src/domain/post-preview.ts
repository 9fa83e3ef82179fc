/**
 * How one post renders on each network, as data: the text the network publishes (its override,
 * else the caption) cut at the network's budget with the rest marked as overflow, the thread's
 * parts, the first media framed by the network's recommended size, a link card, and the title.
 *
 * Every length is measured by `countText` with the registry's rules, the code the validator uses,
 * so the preview and the dry run always agree on what is over. Pure: the composer's server render
 * and its browser script both call it.
 */
import { captionMaxLength, effectiveFormat, RULES } from './rules/index'
import type { MediaKind, TextBudget } from './rules/schema'
import { type TextCountRule, countText, findUrls, firstLine } from './text-count'
import type { PlatformId, PostType } from './vocabulary'

/** A media item as the preview needs it. */
export interface PreviewMedia {
  id: string
  type: 'IMAGE' | 'VIDEO'
  url: string
  altText: string | null
}

/** What the member composed (the form's values, thread parts already split). */
export interface PreviewPost {
  type: PostType
  caption: string
  overrides: Partial<Record<string, string>>
  threadParts: string[]
  /** The selected media, in the order they are published. */
  media: PreviewMedia[]
  linkUrl: string
  pinTitle: string
  /** The body's `title` (networks whose `title.field` is `title`); absent: none typed. */
  title?: string
}

/** A text against one budget: the part the network keeps and the part over the budget. */
export interface CutText {
  kept: string
  overflow: string
  length: number
  limit: number
  over: boolean
}

export interface NetworkPreview {
  platform: PlatformId
  format: PostType
  /** True when the text comes from the network's override. */
  overridden: boolean
  caption: CutText
  /** Follow-up parts (networks with a thread model only). */
  parts: CutText[]
  /** Thread parts were written but this network does not publish them. */
  partsIgnored: boolean
  /** The first media item and the frame the network recommends for it (width / height), or null. */
  media: { item: PreviewMedia; width: number; height: number; more: number } | null
  /** The network publishes no text-only post and none is selected. */
  needsMedia: boolean
  link: { url: string; domain: string } | null
  title: CutText | null
}

/** Grapheme boundaries of `text` as UTF-16 offsets (0 excluded, text.length included). */
function boundaries(text: string): number[] {
  let ascii = true
  for (let i = 0; i < text.length && ascii; i++) if (text.charCodeAt(i) > 0x7f) ascii = false
  if (ascii) return Array.from({ length: text.length }, (_, i) => i + 1)
  const out: number[] = []
  for (const s of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    out.push(s.index + s.segment.length)
  }
  return out
}

/**
 * `text` cut at `limit` as `rule` counts it: the longest prefix of whole graphemes whose count is
 * within the limit is kept. Only measured once when the text fits (the common case, per keystroke).
 */
export function cutText(text: string, rule: TextCountRule, limit: number): CutText {
  const length = countText(text, rule)
  if (length <= limit) return { kept: text, overflow: '', length, limit, over: false }
  const ends = boundaries(text)
  let lo = 0
  let hi = ends.length - 1
  let best = 0
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const end = ends[mid]!
    if (countText(text.slice(0, end), rule) <= limit) {
      best = end
      lo = mid + 1
    } else hi = mid - 1
  }
  return { kept: text.slice(0, best), overflow: text.slice(best), length, limit, over: true }
}

/** 'video' when any item is a video, 'image' when all are images, null without media (as validation reads it). */
function mediaKindOf(media: PreviewMedia[]): MediaKind | null {
  if (media.length === 0) return null
  return media.some((m) => m.type === 'VIDEO') ? 'video' : 'image'
}

/** The first link of the text (or the link option), with its domain, for a card. */
function linkOf(text: string, linkUrl: string): NetworkPreview['link'] {
  const candidates = [linkUrl, ...findUrls(text, false).map(([s, e]) => text.slice(s, e))]
  for (const url of candidates) {
    if (url === '') continue
    try {
      const parsed = new URL(url)
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
        return { url, domain: parsed.hostname.replace(/^www\./, '') }
      }
    } catch {
      // not a URL: the next candidate
    }
  }
  return null
}

/** The frame of the network's first recommended size for the format (and the kind of media). */
function frameOf(platform: PlatformId, format: PostType, item: PreviewMedia): { width: number; height: number } {
  const specs = RULES[platform].recommended.filter((r) => r.format === format)
  const forKind =
    item.type === 'VIDEO'
      ? specs.find((r) => r.canvas === null && r.width !== r.height)
      : specs.find((r) => r.canvas !== null)
  const spec = forKind ?? specs[0] ?? RULES[platform].recommended[0]
  return spec ? { width: spec.width, height: spec.height } : { width: 1, height: 1 }
}

function titleOf(platform: PlatformId, post: PreviewPost, text: string, kind: MediaKind | null): CutText | null {
  const rule = RULES[platform].title
  if (rule === null || (rule.media !== null && rule.media !== kind)) return null
  const typed = rule.field === 'title' ? (post.title ?? '') : rule.field !== null ? post.pinTitle : ''
  const source = typed.trim() !== '' ? typed.trim() : firstLine(text)
  if (source === '') return null
  return cutText(source, rule, rule.maxLength)
}

/** The preview of `post` on `platform`. */
export function previewOn(platform: PlatformId, post: PreviewPost): NetworkPreview {
  const rules = RULES[platform]
  const override = post.overrides[platform]
  const text = typeof override === 'string' && override !== '' ? override : post.caption
  const kind = mediaKindOf(post.media)
  const format = effectiveFormat(platform, post.type)
  const thread = rules.thread
  const part = (p: string, budget: TextBudget) => cutText(p, budget, budget.maxLength)
  const first = post.media[0]
  return {
    platform,
    format,
    overridden: text !== post.caption,
    caption: cutText(text, rules.caption, captionMaxLength(platform, kind)),
    parts: thread === null ? [] : post.threadParts.map((p) => part(p, thread.part)),
    partsIgnored: thread === null && post.threadParts.length > 0,
    media: first ? { item: first, ...frameOf(platform, format, first), more: post.media.length - 1 } : null,
    needsMedia: !rules.media.allowsTextOnly && post.media.length === 0,
    link: kind === null ? linkOf(text, post.linkUrl) : null,
    title: titleOf(platform, post, text, kind),
  }
}

/** Splits the thread textarea into its parts: blocks separated by a line holding only `separator`. */
export function splitThreadParts(value: string, separator = '---'): string[] {
  return value
    .split(new RegExp(`^\\s*${separator}\\s*$`, 'm'))
    .map((p) => p.trim())
    .filter((p) => p !== '')
}
