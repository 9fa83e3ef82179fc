/**
 * Rules of the developer blogging network (DEV, Forem API v1): an article with a title, a Markdown
 * body, up to four tags, a canonical URL, a cover image by URL, published or kept as a draft.
 * Values from the API reference (https://developers.forem.com/api/v1); the lengths the reference
 * does not state come from Forem's own validations and say so in their `note`.
 */
import { NETWORK_DISPLAY } from './display'
import { FORMATTING } from './formatting'
import { optionField as option } from './option-fields'
import type { OptionField, PlatformRules } from './schema'
import { NO_OPTIONS, caption, format, image, limit, sized, title, inbox } from './shared'

/** Forem's tag names: letters and digits only, at most 30 (its Tag model). */
export const DEVBLOG_TAG_PATTERN = /^[\p{L}\p{N}]+$/u
export const DEVBLOG_TAG_MAX_LENGTH = 30
export const DEVBLOG_MAX_TAGS = 4

export const DEVBLOG_NET_FIELDS: OptionField[] = [
  option('tags', 'Tags', 'tags', 'Up to 4 tags, each letters and digits only (no spaces, no #).', {
    maxItems: DEVBLOG_MAX_TAGS,
    maxLength: DEVBLOG_TAG_MAX_LENGTH,
  }),
  option('canonicalUrl', 'Canonical URL', 'url', 'Where the article first appeared, for search engines.'),
  option('description', 'Description', 'string', 'The summary shown in feeds and link previews.', {
    maxLength: 170,
  }),
  option('series', 'Series', 'string', 'The name of the series the article belongs to (made if new).', {
    maxLength: 128,
  }),
  option('published', 'Published', 'boolean', 'False keeps the article as a draft on the network; default true.'),
]

export const DEVBLOG_NET_RULES: PlatformRules = {
  platform: 'DEVBLOG_NET',
  display: NETWORK_DISPLAY.DEVBLOG_NET,
  name: 'developer blogging network',
  connections: ['API_KEY', 'SANDBOX'],
  threadModel: false,
  caption: caption(800 * 1024, 'utf8_bytes', {
    note: "The Markdown body. The API reference states no limit; Forem's article model caps the body at 800 KB.",
  }),
  formatting: FORMATTING.DEVBLOG_NET,
  title: title(128, 'characters', {
    required: true,
    field: 'title',
    note: "Forem's article model: present, at most 128 characters.",
  }),
  thread: null,
  media: {
    allowsTextOnly: true,
    maxItems: 1,
    mixing: false,
    altTextMaxLength: null,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
      maxItems: 1,
      note: 'The cover image, sent as the public URL of the media (the API has no upload).',
    }),
    video: null,
    note: null,
  },
  formats: [format('IMAGE', { mediaKinds: ['image'], maxItems: 1, note: 'One image: the cover of the article.' })],
  defaultFormat: 'IMAGE',
  recommended: [sized('IMAGE', 1000, 420, 'The cover is shown at 1000 x 420.')],
  options: { ...NO_OPTIONS, fields: DEVBLOG_NET_FIELDS },
  deleteSupported: false,
  insights: {
    importsPosts: true,
    followers: false,
    postMetrics: ['likes', 'comments', 'views'],
    note: 'Reactions as likes, comments, and page views (shown to the author only).',
  },
  inbox: inbox({ comments: true, note: 'The API reads comments but cannot write them.' }),
  limits: [
    limit('posts', 10, 30, 'Article creation; secondary source (the reference documents 429 with Retry-After).'),
  ],
  note: 'The API has no delete: an article can only be unpublished, which this service does not offer as a delete.',
}
