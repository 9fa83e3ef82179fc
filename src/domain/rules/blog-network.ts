/**
 * Rules of the blog network (Tumblr API v2, posts in the Neue Post Format). Values from the API
 * reference (rate limits, post states, create parameters) and the NPF specification's "Post
 * Content Limits"; a value known only from the network's help pages says so in its `note`.
 * docs/networks/blog.md lists the pages followed.
 */
import { NETWORK_DISPLAY } from './display'
import { optionField } from './option-fields'
import { FORMATTING } from './formatting'
import type { PlatformRules } from './schema'
import {
  DAY,
  IMAGE_OR_VIDEO,
  MB,
  MINUTE,
  NO_OPTIONS,
  caption,
  format,
  image,
  limit,
  onCanvas,
  title,
  video,
  inbox,
} from './shared'

/** NPF: at most 30 image blocks and one uploaded (native) video block in a post. */
export const BLOG_MAX_IMAGES = 30
export const BLOG_MAX_VIDEOS = 1
/** NPF: a text block holds at most 4,096 code points; a post at most 1,000 content blocks. */
export const BLOG_TEXT_BLOCK_MAX = 4096
export const BLOG_MAX_BLOCKS = 1000
/** Tags: the API takes them comma-separated and states no cap; these are the help centre's. */
export const BLOG_MAX_TAGS = 30
export const BLOG_TAG_MAX_LENGTH = 140
/** The states a new post may take (`unapproved` is for submissions, not offered). */
export const BLOG_POST_STATES = ['published', 'draft', 'queue', 'private'] as const

export const BLOG_NET_RULES: PlatformRules = {
  platform: 'BLOG_NET',
  display: NETWORK_DISPLAY.BLOG_NET,
  name: 'blog network',
  connections: ['DIRECT_LOGIN', 'SANDBOX'],
  threadModel: false,
  caption: caption(100_000, 'characters', {
    note: "This service's cap on any caption; the network takes a post of up to 1 MB of text. Each line becomes a text block (at most 1,000 blocks a post); a line over 4,096 characters is split into several blocks.",
  }),
  formatting: FORMATTING.BLOG_NET,
  title: title(BLOG_TEXT_BLOCK_MAX, 'characters', {
    required: false,
    field: 'title',
    note: "`title` is published as a heading block above the text. Without it the caption's first line is the title shown here, and the network gets it as the first paragraph, not a heading.",
  }),
  thread: null,
  media: {
    allowsTextOnly: true,
    maxItems: BLOG_MAX_IMAGES,
    mixing: true,
    altTextMaxLength: 4096,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
      maxSizeBytes: 20 * MB,
      maxSizeBytesByMimeType: { 'image/gif': 10 * MB },
      maxItems: BLOG_MAX_IMAGES,
      note: "Sizes from the network's help centre (the API reference states none).",
    }),
    video: video({
      mimeTypes: ['video/mp4', 'video/quicktime'],
      maxSizeBytes: 500 * MB,
      maxDurationSec: 10 * MINUTE,
      note: "One uploaded video a post (NPF). Size and length from the network's help centre.",
    }),
    note: 'Images and the video are uploaded with the post (multipart), in the order given; 30 items at most, as a post takes 30 images.',
  },
  formats: [
    format('IMAGE', {
      mediaKinds: IMAGE_OR_VIDEO,
      maxItems: BLOG_MAX_IMAGES,
      note: 'Text alone, up to 30 images, a video, or images with a video (30 items in all); `linkUrl` adds a link block.',
    }),
  ],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'feed_portrait'), onCanvas('IMAGE', 'landscape')],
  options: {
    ...NO_OPTIONS,
    linkUrl: { use: 'link_card', maxLength: null },
    fields: [
      optionField('tags', 'Tags', 'tags', 'Tags of the post, without #; a tag cannot contain a comma.', {
        maxItems: BLOG_MAX_TAGS,
        maxLength: BLOG_TAG_MAX_LENGTH,
      }),
      optionField(
        'state',
        'State',
        'enum',
        'published (the default), draft, queue (the end of the blog queue) or private (published for the blog owner only).',
        { values: [...BLOG_POST_STATES] },
      ),
      optionField('sourceUrl', 'Source URL', 'url', 'Where the content comes from, shown as its source.'),
    ],
  },
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: true,
    postMetrics: ['likes', 'shares'],
    note: "Likes and reblogs (as shares) from the post's notes; replies have no total of their own, so comments are not reported.",
  },
  inbox: inbox({ note: 'Replies are notes without an id the API can act on.' }),
  limits: [
    limit('posts', 250, DAY, 'Reblogs included; per calendar day on the network clock.'),
    limit('media_uploads', 250, DAY, 'Images; videos: 20 a day and 60 minutes in all.'),
  ],
  note: 'An account is one blog of the signed-in member.',
}
