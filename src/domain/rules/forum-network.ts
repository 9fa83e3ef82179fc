/**
 * Rules of the forum network (Reddit): a submission to one subreddit, chosen per target from the
 * account's subreddits. A self post carries the caption as its Markdown body; a link post carries
 * `linkUrl`; an image, a video (with a poster frame) or a gallery of images carries media uploaded
 * to the network's media store. Every submission has a title: the post body's `title`, else the
 * caption's first line. Values from the network's API reference (https://www.reddit.com/dev/api)
 * and API rules (https://github.com/reddit-archive/reddit/wiki/API); values known only from the
 * network's help pages or secondary sources say so in their `note` (docs/networks/forum.md).
 */
import { NETWORK_DISPLAY } from './display'
import { optionField } from './option-fields'
import { FORMATTING } from './formatting'
import type { OptionField, PlatformRules } from './schema'
import { GB, MB, MINUTE, NO_OPTIONS, caption, format, image, limit, onCanvas, title, video, inbox } from './shared'

/** Most images in one gallery submission. */
export const FORUM_GALLERY_MAX_ITEMS = 20
/** Most characters of a self post's body (the caption). */
export const FORUM_SELF_TEXT_MAX = 40_000
/** Most characters of a submission title. */
export const FORUM_TITLE_MAX = 300
/** Most characters of a gallery item's caption (an image's alt text is sent as it). */
export const FORUM_GALLERY_CAPTION_MAX = 180

/** The per-target options a submission takes (`targetOptions.<accountId>.<key>`). */
export const FORUM_FIELDS: OptionField[] = [
  optionField(
    'flairId',
    'Flair',
    'string',
    "The id of one of the subreddit's link flair templates; some subreddits require one.",
    {
      maxLength: 64,
    },
  ),
  optionField(
    'flairText',
    'Flair text',
    'string',
    'The flair text, where the chosen flair template lets the poster edit it.',
    {
      maxLength: 64,
    },
  ),
  optionField('nsfw', 'NSFW', 'boolean', 'Marks the submission as not safe for work.'),
  optionField(
    'spoiler',
    'Spoiler',
    'boolean',
    'Marks the submission as a spoiler (where the subreddit allows spoilers).',
  ),
  optionField(
    'sendReplies',
    'Send replies to inbox',
    'boolean',
    "Sends comments on the submission to the account's inbox (default true).",
  ),
]

export const FORUM_NET_RULES: PlatformRules = {
  platform: 'FORUM_NET',
  display: NETWORK_DISPLAY.FORUM_NET,
  name: 'forum network',
  connections: ['DIRECT_LOGIN', 'SANDBOX'],
  threadModel: false,
  caption: caption(FORUM_SELF_TEXT_MAX, 'characters', {
    note: 'The caption is the Markdown body of a self post (40,000 characters); a link, image, video or gallery submission carries no body, so the caption only gives its title there.',
  }),
  formatting: FORMATTING.FORUM_NET,
  title: title(FORUM_TITLE_MAX, 'characters', {
    required: true,
    field: 'title',
    note: "Every submission needs a title of 1 to 300 characters: the post body's `title`, else the caption's first line.",
  }),
  thread: null,
  media: {
    allowsTextOnly: true,
    maxItems: FORUM_GALLERY_MAX_ITEMS,
    mixing: true,
    altTextMaxLength: FORUM_GALLERY_CAPTION_MAX,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/gif'],
      maxSizeBytes: 20 * MB,
      maxItems: FORUM_GALLERY_MAX_ITEMS,
      note: "The 20 MB cap is from the network's help pages, not its API reference (unconfirmed without a live account).",
    }),
    video: video({
      mimeTypes: ['video/mp4', 'video/quicktime'],
      maxSizeBytes: 1 * GB,
      maxDurationSec: 15 * MINUTE,
      note: "1 GB and 15 minutes are from the network's help pages, not its API reference (unconfirmed without a live account). A video post also carries one image, its poster (the network asks for a poster image).",
    }),
    note: 'One image; one video with one image as its poster; or 2 to 20 images as a gallery.',
  },
  formats: [
    format('IMAGE', {
      mediaKinds: ['image', 'video'],
      maxItems: 2,
      note: 'No media: a self post (the caption) or, with `linkUrl`, a link post. One image: an image post. One video and one image (its poster): a video post. Two images: a gallery.',
    }),
    format('CAROUSEL', {
      mediaKinds: ['image'],
      minItems: 2,
      maxItems: FORUM_GALLERY_MAX_ITEMS,
      note: 'A gallery: 2 to 20 images, each with its alt text as the item caption.',
    }),
  ],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'landscape'), onCanvas('CAROUSEL', 'feed_square')],
  options: {
    ...NO_OPTIONS,
    linkUrl: { use: 'destination', maxLength: null },
    destination: {
      noun: 'subreddit',
      nounPlural: 'subreddits',
      requiredToPublish: true,
      note: 'Listed from the subreddits the account subscribes to, moderates or contributes to.',
    },
    fields: FORUM_FIELDS,
  },
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: false,
    postMetrics: ['likes', 'comments'],
    note: 'Likes are the submission score (upvotes less downvotes); the network reports no views through its API.',
  },
  inbox: inbox({
    comments: true,
    reply: true,
    like: true,
    mentions: true,
    replyMaxLength: 10_000,
    note: "Liking is an upvote; mentions are the account's username mentions.",
  }),
  limits: [
    limit(
      'requests',
      60,
      60,
      '60 requests a minute per OAuth client and user, as the API rules page says (later announcements speak of 100; unconfirmed). The adapter follows the X-Ratelimit-* headers: it stops when the reported budget is spent and waits for its reset.',
    ),
  ],
  note: 'Subreddits set their own rules (karma, flair, allowed kinds); the network refuses a submission that breaks them, in its own words.',
}
