/**
 * Rules of the text-first networks with a thread model: the microblog network (X API v2),
 * the text-thread network (Threads API), the open-protocol network (Bluesky, AT Protocol)
 * and the federated network (Mastodon API). Values from each network's own reference; a value
 * known only from a secondary source says so in its `note`.
 */
import { NETWORK_DISPLAY } from './display'
import type { PlatformRules } from './schema'
import {
  DAY,
  GB,
  HOUR,
  IMAGE_OR_VIDEO,
  MB,
  MINUTE,
  NO_OPTIONS,
  SERVICE_THREAD_CAP,
  SERVICE_THREAD_CAP_NOTE,
  captionFrom,
  format,
  image,
  limit,
  onCanvas,
  sized,
  textBudget,
  video,
  inbox,
} from './shared'
import { FORMATTING } from './formatting'

/** twitter-text config v3: 280 weighted units, NFC, every URL 23. */
const MICROBLOG_TEXT = textBudget(280, 'weighted', { urlWeight: 23, normalization: 'NFC' })
/** The text-thread network counts characters, emoji by their UTF-8 bytes. */
const TEXTTHREAD_TEXT = textBudget(500, 'characters_emoji_bytes')
/** The open-protocol network's post lexicon: 300 graphemes and 3,000 bytes. */
const OPENPROTOCOL_TEXT = textBudget(300, 'graphemes', { maxBytes: 3000 })
/** The federated network's default instance: 500 graphemes, URL 23, mentions without domain. */
const FEDERATED_TEXT = textBudget(500, 'graphemes', { urlWeight: 23, mentionDomainFree: true })

export const MICROBLOG_NET_RULES: PlatformRules = {
  platform: 'MICROBLOG_NET',
  display: NETWORK_DISPLAY.MICROBLOG_NET,
  name: 'microblog network',
  connections: ['DIRECT_LOGIN', 'SANDBOX'],
  threadModel: true,
  caption: captionFrom(MICROBLOG_TEXT, {
    note: 'Subscribed accounts may post longer texts; 280 is enforced for every account.',
  }),
  formatting: FORMATTING.MICROBLOG_NET,
  title: null,
  thread: { maxParts: SERVICE_THREAD_CAP, part: MICROBLOG_TEXT, note: SERVICE_THREAD_CAP_NOTE },
  media: {
    allowsTextOnly: true,
    maxItems: 4,
    mixing: false,
    altTextMaxLength: null,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
      maxSizeBytes: 5 * MB,
      maxSizeBytesByMimeType: { 'image/gif': 15 * MB },
      maxItems: 4,
      note: 'Up to 4 images, or a single animated GIF.',
    }),
    video: video({
      mimeTypes: ['video/mp4', 'video/quicktime'],
      maxSizeBytes: 512 * MB,
      minWidth: 32,
      minHeight: 32,
      minAspectRatio: 1 / 3,
      maxAspectRatio: 3,
      minDurationSec: 0.5,
      maxDurationSec: 140,
      note: "H.264 with AAC-LC audio. A newer revision of the network's docs allows 20 minutes and 8 GB; the older caps are kept until that is settled.",
    }),
    note: null,
  },
  formats: [format('IMAGE', { mediaKinds: IMAGE_OR_VIDEO, maxItems: 4 })],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'landscape'), onCanvas('IMAGE', 'feed_square'), sized('IMAGE', 1280, 720, 'Video.')],
  options: { ...NO_OPTIONS, replyToMicropostId: true, quoteMicropostId: true },
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: true,
    postMetrics: ['likes', 'comments', 'shares', 'views', 'saves'],
    note: null,
  },
  inbox: inbox({
    comments: true,
    reply: true,
    hide: true,
    like: true,
    mentions: true,
    note: "Replies in the post's conversation are its comments; only the author of a reply can delete it.",
  }),
  limits: [limit('posts', 100, 15 * MINUTE, 'Thread parts count as posts.')],
  note: "A quote needs a plan the network sells separately; without it the quoted post's URL is appended to the text.",
}

export const TEXTTHREAD_NET_RULES: PlatformRules = {
  platform: 'TEXTTHREAD_NET',
  display: NETWORK_DISPLAY.TEXTTHREAD_NET,
  name: 'text-thread network',
  connections: ['DIRECT_LOGIN', 'SANDBOX'],
  threadModel: true,
  caption: captionFrom(TEXTTHREAD_TEXT),
  formatting: FORMATTING.TEXTTHREAD_NET,
  title: null,
  thread: { maxParts: SERVICE_THREAD_CAP, part: TEXTTHREAD_TEXT, note: SERVICE_THREAD_CAP_NOTE },
  media: {
    allowsTextOnly: true,
    maxItems: 20,
    mixing: true,
    altTextMaxLength: null,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png'],
      maxSizeBytes: 8 * MB,
      minWidth: 320,
      minAspectRatio: 0.1,
      maxAspectRatio: 10,
      maxItems: 20,
      note: 'Secondary source. Images wider than 1440 px are scaled down by the network.',
    }),
    video: video({
      mimeTypes: ['video/mp4', 'video/quicktime'],
      maxSizeBytes: 1 * GB,
      maxWidth: 1920,
      maxDurationSec: 5 * MINUTE,
      maxItems: 20,
      note: 'Secondary source.',
    }),
    note: null,
  },
  formats: [
    format('IMAGE', { mediaKinds: IMAGE_OR_VIDEO, maxItems: 20, note: 'Several items are published as a carousel.' }),
    format('CAROUSEL', {
      mediaKinds: IMAGE_OR_VIDEO,
      minItems: 2,
      maxItems: 20,
      note: "The network's reference: 2 to 20 images or videos, or a mix.",
    }),
  ],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'feed_portrait'), onCanvas('CAROUSEL', 'feed_portrait')],
  options: NO_OPTIONS,
  deleteSupported: false,
  insights: {
    importsPosts: true,
    followers: false,
    postMetrics: [],
    note: 'This service collects no insights from this network.',
  },
  inbox: inbox({
    comments: true,
    reply: true,
    hide: true,
    mentions: true,
    note: "Replies to the account's posts are its comments.",
  }),
  limits: [
    limit('posts', 250, DAY, 'A carousel counts as one post.'),
    limit('replies', 1000, DAY, 'Thread parts are replies.'),
  ],
  note: 'Media is fetched by the network from a public URL.',
}

export const OPENPROTOCOL_NET_RULES: PlatformRules = {
  platform: 'OPENPROTOCOL_NET',
  display: NETWORK_DISPLAY.OPENPROTOCOL_NET,
  name: 'open-protocol network',
  connections: ['APP_PASSWORD', 'SANDBOX'],
  threadModel: true,
  caption: captionFrom(OPENPROTOCOL_TEXT),
  formatting: FORMATTING.OPENPROTOCOL_NET,
  title: null,
  thread: { maxParts: SERVICE_THREAD_CAP, part: OPENPROTOCOL_TEXT, note: SERVICE_THREAD_CAP_NOTE },
  media: {
    allowsTextOnly: true,
    maxItems: 4,
    mixing: false,
    altTextMaxLength: null,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/webp'],
      maxSizeBytes: 1 * MB,
      maxItems: 4,
      note: 'Each image at most 1,000,000 bytes.',
    }),
    video: video({
      mimeTypes: ['video/mp4'],
      maxSizeBytes: 100 * MB,
      maxDurationSec: 3 * MINUTE,
      note: "The duration cap is from a secondary source; the account's daily video quota is checked when publishing.",
    }),
    note: null,
  },
  formats: [format('IMAGE', { mediaKinds: IMAGE_OR_VIDEO, maxItems: 4, note: 'Up to 4 images, or one video.' })],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'landscape'), onCanvas('IMAGE', 'feed_square')],
  options: NO_OPTIONS,
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: true,
    postMetrics: ['likes', 'comments', 'shares'],
    note: 'The network reports no views.',
  },
  inbox: inbox({
    comments: true,
    reply: true,
    like: true,
    mentions: true,
    note: "Replies in the post's thread are its comments; mentions come from the account's notifications.",
  }),
  limits: [limit('posts', 1666, HOUR, 'A write budget of 5,000 points an hour at 3 points a post.')],
  note: 'Links, mentions and hashtags are published as rich-text facets.',
}

export const FEDERATED_NET_RULES: PlatformRules = {
  platform: 'FEDERATED_NET',
  display: NETWORK_DISPLAY.FEDERATED_NET,
  name: 'federated network',
  connections: ['DIRECT_LOGIN', 'SANDBOX'],
  threadModel: true,
  caption: captionFrom(FEDERATED_TEXT, {
    note: "The default of the network's server software; an instance may allow more.",
  }),
  formatting: FORMATTING.FEDERATED_NET,
  title: null,
  thread: { maxParts: SERVICE_THREAD_CAP, part: FEDERATED_TEXT, note: SERVICE_THREAD_CAP_NOTE },
  media: {
    allowsTextOnly: true,
    maxItems: 4,
    mixing: false,
    altTextMaxLength: null,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic', 'image/heif', 'image/avif'],
      maxSizeBytes: 16 * 1024 * 1024,
      maxPixels: 33_177_600,
      maxItems: 4,
    }),
    video: video({
      mimeTypes: ['video/mp4', 'video/webm', 'video/quicktime', 'video/ogg'],
      maxSizeBytes: 103_809_024,
      maxPixels: 8_294_400,
    }),
    note: 'Defaults of current server versions; an instance may differ (older ones allow 10 MB images, 40 MB video).',
  },
  formats: [format('IMAGE', { mediaKinds: IMAGE_OR_VIDEO, maxItems: 4, note: 'Up to 4 images, or one video.' })],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'landscape'), onCanvas('IMAGE', 'feed_square')],
  options: NO_OPTIONS,
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: true,
    postMetrics: ['likes', 'comments', 'shares'],
    note: null,
  },
  inbox: inbox({
    comments: true,
    reply: true,
    like: true,
    mentions: true,
    note: "Replies in the status's context are its comments; liking is the network's favourite.",
  }),
  limits: [limit('requests', 300, 5 * MINUTE), limit('media_uploads', 30, 30 * MINUTE)],
  note: null,
}
