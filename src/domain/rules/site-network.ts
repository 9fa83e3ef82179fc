/**
 * Rules of the site publishing network (WordPress REST API, wp/v2): a post or a page with a title,
 * HTML content made from the caption, an excerpt, categories, tags, a slug, a status and a featured
 * image, on a self-hosted site (application passwords) or a site hosted by WordPress.com (its
 * OAuth). Values from https://developer.wordpress.org/rest-api/reference/; WordPress itself sets
 * almost no lengths, so the few budgets here say where they come from.
 */
import { NETWORK_DISPLAY } from './display'
import { FORMATTING } from './formatting'
import { optionField as option } from './option-fields'
import type { OptionField, PlatformRules } from './schema'
import { NO_OPTIONS, caption, format, image, onCanvas, title, inbox } from './shared'

export const SITE_POST_KINDS = ['post', 'page'] as const
export const SITE_STATUSES = ['publish', 'draft', 'private'] as const

export const SITE_NET_FIELDS: OptionField[] = [
  option('kind', 'Post or page', 'enum', 'A blog post (default) or a standalone page.', {
    values: [...SITE_POST_KINDS],
  }),
  option('status', 'Status', 'enum', 'publish (default), draft, or private (only editors see it).', {
    values: [...SITE_STATUSES],
  }),
  option('excerpt', 'Excerpt', 'text', 'The summary the theme shows in lists and feeds.'),
  option(
    'categories',
    'Categories',
    'tags',
    "Names of the site's existing categories (posts only); an unknown one is refused.",
  ),
  option('tags', 'Tags', 'tags', 'Tag names (posts only); a tag the site lacks is made.'),
  option('slug', 'Slug', 'string', 'The last part of the address; the site derives one from the title when unset.', {
    maxLength: 200,
  }),
]

export const SITE_NET_RULES: PlatformRules = {
  platform: 'SITE_NET',
  display: NETWORK_DISPLAY.SITE_NET,
  name: 'site publishing network',
  connections: ['APP_PASSWORD', 'DIRECT_LOGIN', 'SANDBOX'],
  threadModel: false,
  caption: caption(8_000_000, 'utf8_bytes', {
    note: "The site stores content of any length; a request is bounded by the server's body limit (8 MB by PHP's default).",
  }),
  formatting: FORMATTING.SITE_NET,
  title: title(65_535, 'utf8_bytes', {
    required: true,
    field: 'title',
    note: "No length is documented; the database column holds 65,535 bytes. Without one, the caption's first line.",
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
      note: "The featured image, uploaded to the site's media library; the size cap is the server's upload limit.",
    }),
    video: null,
    note: null,
  },
  formats: [format('IMAGE', { mediaKinds: ['image'], maxItems: 1, note: 'One image: the featured image.' })],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'landscape', 'Themes crop featured images differently; a wide image suits most.')],
  options: { ...NO_OPTIONS, fields: SITE_NET_FIELDS },
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: false,
    postMetrics: ['comments'],
    note: 'Approved comments, counted by the site; it reports no likes or views through its API.',
  },
  inbox: inbox({
    comments: true,
    reply: true,
    hide: true,
    delete: true,
    note: 'Hiding sets the comment back to pending approval; a delete moves it to the trash.',
  }),
  limits: [],
  note: 'A delete moves the post or page to the trash, where the site keeps it until emptied.',
}
