/**
 * The title a target publishes, as the rules registry's `title` says: the one a body field sets
 * (`title`, or the pin title), else derived from the caption's first line and shortened at the
 * last whole word that fits (`derivedOverflow: 'shorten'`). Create and validate refuse an explicit
 * title over the budget, so only one that reaches the network some other way is shortened here.
 */
import type { MediaKind, TitleRules } from './rules/schema'
import { countText, firstLine } from './text-count'

export interface TitleSource {
  /** The value of the body field the rules name (`title.field`); null when unset. */
  explicit: string | null
  /** The caption this target publishes. */
  text: string
  /** What the post carries: a video, images, or nothing. */
  mediaKind: MediaKind | null
}

export function targetTitle(rule: TitleRules | null, source: TitleSource): string | null {
  if (rule === null) return null
  if (rule.media !== null && rule.media !== source.mediaKind) return null
  const explicit = rule.field !== null ? (source.explicit?.trim() ?? '') : ''
  return shortenToFit(explicit || firstLine(source.text), rule) || null
}

/** The text cut at the last whole word within the budget; one word longer than it is cut by code points. */
export function shortenToFit(line: string, rule: TitleRules): string {
  const fits = (text: string) => countText(text, rule) <= rule.maxLength
  if (fits(line)) return line
  let title = ''
  for (const word of line.split(/\s+/)) {
    const next = title === '' ? word : `${title} ${word}`
    if (!fits(next)) break
    title = next
  }
  return title || [...line].slice(0, rule.maxLength).join('')
}

/** The body field's value the rules name as the title's source. */
export function explicitTitle(
  rule: TitleRules | null,
  body: { title: string | null; pinTitle: string | null },
): string | null {
  if (rule?.field === 'title') return body.title
  if (rule?.field === 'pinboardNetOptions.title') return body.pinTitle
  return null
}

export const mediaKindOf = (media: ReadonlyArray<{ type: string }>): MediaKind | null =>
  media.length === 0 ? null : media.some((m) => m.type === 'VIDEO') ? 'video' : 'image'
