/**
 * Rich-text facets of the open-protocol network (app.bsky.richtext.facet): the network detects
 * nothing itself, so links, mentions and hashtags become facets whose ranges are UTF-8 BYTE
 * offsets into the text. The text itself is never changed. A mention whose handle does not
 * resolve to a DID stays plain text (no facet), as the network's own client does.
 */

/** http(s) URLs; trailing punctuation is not part of the link. */
const LINK = /\bhttps?:\/\/[^\s<>"'`]+/gi
const LINK_TRAILING = /[.,;:!?)\]}'"]+$/
/** @handle.domain (a handle always has a dot), not preceded by a word character. */
const MENTION = /(^|[\s([])@([a-zA-Z0-9][a-zA-Z0-9.-]*\.[a-zA-Z]{2,})/g
/** #tag: up to 64 characters, not only digits, not preceded by a word character. */
const HASHTAG = /(^|\s)[#＃]((?!\d+\b)[^\s#.,;:!?()[\]{}'"]{1,64})/gu

export type FacetFeature =
  | { $type: 'app.bsky.richtext.facet#link'; uri: string }
  | { $type: 'app.bsky.richtext.facet#mention'; did: string }
  | { $type: 'app.bsky.richtext.facet#tag'; tag: string }

export interface Facet {
  $type: 'app.bsky.richtext.facet'
  index: { byteStart: number; byteEnd: number }
  features: FacetFeature[]
}

interface Found {
  start: number
  end: number
  kind: 'link' | 'mention' | 'tag'
  value: string
}

const encoder = new TextEncoder()
const byteOffset = (text: string, charIndex: number) => encoder.encode(text.slice(0, charIndex)).byteLength

function findAll(text: string): Found[] {
  const found: Found[] = []
  for (const m of text.matchAll(LINK)) {
    const uri = m[0].replace(LINK_TRAILING, '')
    found.push({ start: m.index, end: m.index + uri.length, kind: 'link', value: uri })
  }
  for (const m of text.matchAll(MENTION)) {
    const handle = m[2]!.replace(/\.+$/, '')
    const start = m.index + m[1]!.length
    found.push({ start, end: start + 1 + handle.length, kind: 'mention', value: handle.toLowerCase() })
  }
  for (const m of text.matchAll(HASHTAG)) {
    const tag = m[2]!
    const start = m.index + m[1]!.length
    found.push({ start, end: start + 1 + tag.length, kind: 'tag', value: tag })
  }
  // Links win over what looks like a tag or mention inside them (a URL fragment, an @ in a path).
  found.sort((a, b) => a.start - b.start || (a.kind === 'link' ? -1 : 1))
  const kept: Found[] = []
  for (const f of found) if (!kept.some((k) => f.start < k.end && k.start < f.end)) kept.push(f)
  return kept
}

/** Handles mentioned in the text, lowercased, for resolving to DIDs. */
export const mentionedHandles = (text: string): string[] => [
  ...new Set(
    findAll(text)
      .filter((f) => f.kind === 'mention')
      .map((f) => f.value),
  ),
]

/** The facets of `text`; `dids` maps resolved handles (lowercased) to DIDs. */
export function facetsOf(text: string, dids: ReadonlyMap<string, string>): Facet[] {
  const facets: Facet[] = []
  for (const f of findAll(text)) {
    let feature: FacetFeature
    if (f.kind === 'link') feature = { $type: 'app.bsky.richtext.facet#link', uri: f.value }
    else if (f.kind === 'tag') feature = { $type: 'app.bsky.richtext.facet#tag', tag: f.value }
    else {
      const did = dids.get(f.value)
      if (!did) continue
      feature = { $type: 'app.bsky.richtext.facet#mention', did }
    }
    facets.push({
      $type: 'app.bsky.richtext.facet',
      index: { byteStart: byteOffset(text, f.start), byteEnd: byteOffset(text, f.end) },
      features: [feature],
    })
  }
  return facets
}
