/**
 * Rules of the community network (Lemmy, HTTP API v3 of Lemmy 0.19): a post goes to one
 * community, has a title (3 to 200 characters, one line), a Markdown body, a URL and at most one
 * image (uploaded to the instance's image store and used as the post's URL, or as the thumbnail of
 * a link post). Lengths are the server's validation constants (characters counted as Unicode code
 * points); media sizes are the image server's defaults, which each instance may change.
 */
import { NETWORK_DISPLAY } from './display'
import { optionField } from './option-fields'
import { FORMATTING } from './formatting'
import type { PlatformRules } from './schema'
import { HOUR, MB, MINUTE, NO_OPTIONS, caption, format, image, limit, onCanvas, title, inbox } from './shared'

/** The server's POST_BODY_MAX_LENGTH; a title is 3 to 200 code points without a line break. */
const BODY_MAX = 50_000
const TITLE_MAX = 200
/** ALT_TEXT_MAX_LENGTH and URL_MAX_LENGTH of the server's validation. */
const ALT_TEXT_MAX = 1500
const URL_MAX = 2000

export const COMMUNITY_NET_RULES: PlatformRules = {
  platform: 'COMMUNITY_NET',
  display: NETWORK_DISPLAY.COMMUNITY_NET,
  name: 'community network',
  connections: ['APP_PASSWORD', 'SANDBOX'],
  threadModel: false,
  caption: caption(BODY_MAX, 'characters', { note: "The caption is the post's body, rendered as Markdown." }),
  formatting: FORMATTING.COMMUNITY_NET,
  title: title(TITLE_MAX, 'characters', {
    required: true,
    field: 'title',
    forbiddenCharacters: ['\n', '\r'],
    note: "At least 3 characters once trimmed, on one line. Without `title`, the caption's first line is used.",
  }),
  thread: null,
  media: {
    allowsTextOnly: true,
    maxItems: 1,
    mixing: false,
    altTextMaxLength: ALT_TEXT_MAX,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif'],
      maxItems: 1,
      maxSizeBytes: 40 * MB,
      maxWidth: 10_000,
      maxHeight: 10_000,
      maxPixels: 40_000_000,
      note: "The image server's defaults; an instance may set lower ones.",
    }),
    video: null,
    note: 'One image, uploaded to the instance. A video is published as a link: put its address in `linkUrl`.',
  },
  formats: [format('IMAGE', { mediaKinds: ['image'], maxItems: 1, note: 'A text, link or image post.' })],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'landscape')],
  options: {
    ...NO_OPTIONS,
    linkUrl: { use: 'link_card', maxLength: URL_MAX },
    destination: {
      noun: 'community',
      nounPlural: 'communities',
      requiredToPublish: true,
      note: 'The communities the account follows, on its instance or federated to it.',
    },
    fields: [
      optionField('nsfw', 'NSFW', 'boolean', 'Marks the post as not safe for work.'),
      optionField(
        'languageId',
        'Language id',
        'integer',
        "The instance's language id (its site answer lists them); the community must allow it. Absent: the account's default language.",
        { min: 0 },
      ),
    ],
  },
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: false,
    postMetrics: ['likes', 'comments'],
    note: "Likes are the post's score (upvotes minus downvotes); the network has no followers for a person.",
  },
  inbox: inbox({
    comments: true,
    reply: true,
    delete: false,
    like: true,
    mentions: true,
    replyMaxLength: 10_000,
    note: "Liking is an upvote; mentions are the account's person mentions.",
  }),
  limits: [
    limit('posts', 6, 10 * MINUTE, "The instance's default, per client address; each instance sets its own."),
    limit('media_uploads', 6, HOUR, "The instance's default, per client address."),
  ],
  note: 'Each account lives on its own instance; the instance address is checked as any user-given address.',
}
