/**
 * The composer's preview cards as a plain tree of elements and text, built once from the domain
 * preview model (src/domain/post-preview.ts): the server turns the tree into JSX, the composer's
 * script into DOM nodes (text always as text nodes, never parsed as HTML). One markup, two renderers.
 */
import {
  type CutText,
  type NetworkPreview,
  type PreviewMedia,
  type PreviewPost,
  previewOn,
  splitThreadParts,
} from '../../../domain/post-preview'
import { RULES } from '../../../domain/rules/index'
import { type PlatformId, POST_TYPES, type PostType } from '../../../domain/vocabulary'

export interface PreviewNode {
  tag: string
  attrs: Record<string, string>
  children: Array<PreviewNode | string>
}

/** The account a card previews, and its per-account options (board name, who can watch). */
export interface PreviewAccount {
  id: string
  username: string
  platform: PlatformId
  board?: string | undefined
  privacy?: string | undefined
}

type Child = PreviewNode | string | null | false
const h = (tag: string, attrs: Record<string, string>, ...children: Child[]): PreviewNode => ({
  tag,
  attrs,
  children: children.filter((c): c is PreviewNode | string => c !== null && c !== false && c !== ''),
})

/** Label read out for the part of a text the network cuts. */
export const OVERFLOW_LABEL = 'will be cut'

/** The network's human name (the rules registry's display). */
export const networkName = (platform: PlatformId): string => RULES[platform].display.name

/** A network's mark as the design system draws it (src/dashboard/ui/network.tsx): its glyph on its colour. */
export function networkMark(platform: PlatformId, size: 'small' | 'medium' = 'medium'): PreviewNode {
  return h(
    'span',
    { class: `network-mark network-${platform}${size === 'small' ? ' is-small' : ''}`, 'aria-hidden': 'true' },
    h(
      'svg',
      { viewBox: '0 0 24 24', focusable: 'false', 'aria-hidden': 'true' },
      h('path', { d: RULES[platform].display.mark }),
    ),
  )
}

/** A text with the part over the budget marked. */
function cut(tag: string, cls: string, text: CutText): PreviewNode {
  return h(
    tag,
    { class: cls },
    text.kept,
    text.over && h('mark', { class: 'overflow', 'aria-label': OVERFLOW_LABEL, title: OVERFLOW_LABEL }, text.overflow),
  )
}

const countLabel = (t: CutText) => `${t.length} / ${t.limit}`

function media(p: NetworkPreview): PreviewNode | null {
  if (!p.media) return null
  const { item, width, height, more } = p.media
  const body =
    item.type === 'VIDEO'
      ? h('video', { src: item.url, muted: '', preload: 'metadata', 'aria-label': item.altText ?? 'Video' })
      : h('img', { src: item.url, alt: item.altText ?? '', loading: 'lazy' })
  return h(
    'figure',
    { class: `preview-media frame-${width}x${height}`, 'data-frame': `${width}x${height}` },
    body,
    more > 0 && h('figcaption', { class: 'preview-more' }, `+${more}`),
  )
}

function link(p: NetworkPreview): PreviewNode | null {
  if (!p.link) return null
  return h(
    'div',
    { class: 'preview-link' },
    h('span', { class: 'preview-link-domain' }, p.link.domain),
    h('span', { class: 'preview-link-title' }, 'Link card: title and image come from the page when published'),
  )
}

function thread(p: NetworkPreview): PreviewNode | null {
  if (p.parts.length === 0) return null
  return h(
    'ol',
    { class: 'preview-thread', 'aria-label': 'Thread parts' },
    ...p.parts.map((part) =>
      h(
        'li',
        { class: part.over ? 'over' : '' },
        cut('p', 'preview-text', part),
        h('span', { class: 'preview-count' }, countLabel(part)),
      ),
    ),
  )
}

function notes(a: PreviewAccount, p: NetworkPreview): PreviewNode | null {
  const lines = [
    a.board ? `Board: ${a.board}` : '',
    a.privacy ? `Who can watch: ${a.privacy.toLowerCase().replaceAll('_', ' ')}` : '',
    p.format !== 'IMAGE' ? `Published as ${p.format.toLowerCase()}` : '',
    p.needsMedia ? 'Needs an image or a video to publish here.' : '',
    p.partsIgnored ? 'Thread parts are not published on this network.' : '',
  ].filter((l) => l !== '')
  if (lines.length === 0) return null
  return h('ul', { class: 'preview-notes' }, ...lines.map((l) => h('li', {}, l)))
}

/** One account's preview card. */
export function previewCard(a: PreviewAccount, p: NetworkPreview): PreviewNode {
  const over = p.caption.over || p.parts.some((x) => x.over) || (p.title?.over ?? false)
  return h(
    'article',
    {
      class: over ? 'preview-card is-over' : 'preview-card',
      'data-platform': a.platform,
      'data-account': a.id,
      'aria-label': `Preview on ${networkName(a.platform)} as ${a.username}`,
    },
    h(
      'header',
      { class: 'preview-head' },
      networkMark(a.platform),
      h(
        'span',
        { class: 'preview-who' },
        h('span', { class: 'preview-name' }, a.username),
        h('span', { class: 'preview-network' }, networkName(a.platform), p.overridden ? ' · own text' : ''),
      ),
      h('span', { class: p.caption.over ? 'preview-count over' : 'preview-count' }, countLabel(p.caption)),
    ),
    p.title && cut('p', 'preview-title', p.title),
    p.caption.kept === '' && !p.caption.over
      ? h('p', { class: 'preview-empty' }, 'No text yet.')
      : cut('p', 'preview-text', p.caption),
    media(p),
    link(p),
    thread(p),
    notes(a, p),
  )
}

/** What the preview column shows when no account is selected. */
export const NO_PREVIEW: PreviewNode = h(
  'p',
  { class: 'preview-placeholder' },
  'Pick one or more accounts to see how the post looks on each network.',
)

/** The form's values a preview reads (ComposeValues satisfies it). */
export interface PreviewValues {
  type: string
  caption: string
  overrides: Record<string, string>
  threadParts: string
  mediaIds: string[]
  linkUrl: string
  pinTitle: string
  title?: string
}

/** The preview model's input from the form's values and the library's media (by id). */
export function previewPostOf(v: PreviewValues, media: ReadonlyMap<string, PreviewMedia>): PreviewPost {
  return {
    type: (POST_TYPES as readonly string[]).includes(v.type) ? (v.type as PostType) : 'IMAGE',
    caption: v.caption,
    overrides: v.overrides,
    threadParts: splitThreadParts(v.threadParts),
    media: v.mediaIds.flatMap((id) => {
      const m = media.get(id)
      return m ? [m] : []
    }),
    linkUrl: v.linkUrl,
    pinTitle: v.pinTitle,
    title: v.title ?? '',
  }
}

/** Every selected account's card, in the order given. */
export function previewCards(accounts: PreviewAccount[], post: PreviewPost): PreviewNode[] {
  if (accounts.length === 0) return [NO_PREVIEW]
  return accounts.map((a) => previewCard(a, previewOn(a.platform, post)))
}
