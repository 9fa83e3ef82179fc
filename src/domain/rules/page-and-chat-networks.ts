/**
 * Rules of the page and chat networks: the page-based social network (Facebook Pages,
 * Graph API), the professional network (LinkedIn Posts API), the messaging app (Telegram
 * Bot API) and the chat community (Discord). Values from each network's own reference; a value
 * known only from a secondary source says so in its `note`.
 */
import { NETWORK_DISPLAY } from './display'
import type { PlatformRules } from './schema'
import {
  DAY,
  GB,
  IMAGE_OR_VIDEO,
  MB,
  MINUTE,
  MiB,
  NO_OPTIONS,
  SERVICE_THREAD_CAP,
  SERVICE_THREAD_CAP_NOTE,
  caption,
  captionFrom,
  format,
  image,
  limit,
  onCanvas,
  textBudget,
  video,
  inbox,
} from './shared'
import { FORMATTING } from './formatting'

/** The messaging app's text message: 4,096 characters after entity parsing, read as UTF-16 units. */
const MESSAGING_TEXT = textBudget(4096, 'utf16')
/** The chat community's message `content`. */
const CHAT_TEXT = textBudget(2000, 'characters')

export const SOCIALGRAPH_NET_RULES: PlatformRules = {
  platform: 'SOCIALGRAPH_NET',
  display: NETWORK_DISPLAY.SOCIALGRAPH_NET,
  name: 'page-based social network',
  connections: ['DIRECT_LOGIN', 'SANDBOX'],
  threadModel: false,
  caption: caption(63_206, 'characters', {
    note: "From an open-source scheduler; the network's own reference states no limit.",
  }),
  formatting: FORMATTING.SOCIALGRAPH_NET,
  title: null,
  thread: null,
  media: {
    allowsTextOnly: true,
    maxItems: 10,
    mixing: false,
    altTextMaxLength: null,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/tiff'],
      maxSizeBytes: 4 * MB,
      maxItems: 10,
      note: "About 4 MB per photo (stories take 10 MB). No cap on photos per post is documented; 10 is this service's cap.",
    }),
    video: video({
      mimeTypes: ['video/mp4', 'video/quicktime'],
      maxSizeBytes: 10 * GB,
      maxDurationSec: 240 * MINUTE,
      note: "Feed video caps are unverified in the network's reference.",
    }),
    note: null,
  },
  formats: [
    format('IMAGE', {
      mediaKinds: IMAGE_OR_VIDEO,
      maxItems: 10,
      note: 'Several photos are published as one multi-photo post; a CAROUSEL is published the same way.',
    }),
    format('REEL', {
      mediaKinds: ['video'],
      maxItems: 1,
      minVideoDurationSec: 3,
      maxVideoDurationSec: 90,
      note: 'Vertical 9:16, at least 540 x 960, 24 to 60 fps.',
    }),
    format('STORY', { mediaKinds: IMAGE_OR_VIDEO, maxItems: 1 }),
  ],
  defaultFormat: 'IMAGE',
  recommended: [
    onCanvas('IMAGE', 'feed_portrait'),
    onCanvas('IMAGE', 'feed_square'),
    onCanvas('IMAGE', 'landscape'),
    onCanvas('REEL', 'story'),
    onCanvas('STORY', 'story'),
  ],
  options: { ...NO_OPTIONS, linkUrl: { use: 'link_card', maxLength: null } },
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: true,
    postMetrics: ['likes', 'comments', 'shares', 'views'],
    note: null,
  },
  inbox: inbox({
    comments: true,
    reply: true,
    hide: true,
    delete: true,
    like: true,
    mentions: true,
    replyMaxLength: 8_000,
    note: "Comments on the page's posts; mentions are posts that tag the page.",
  }),
  limits: [limit('reels', 30, DAY)],
  note: null,
}

export const PROFESSIONAL_NET_RULES: PlatformRules = {
  platform: 'PROFESSIONAL_NET',
  display: NETWORK_DISPLAY.PROFESSIONAL_NET,
  name: 'professional network',
  connections: ['DIRECT_LOGIN', 'SANDBOX'],
  threadModel: false,
  caption: caption(3000, 'characters', {
    note: "Secondary source. The publisher escapes the network's reserved characters.",
  }),
  formatting: FORMATTING.PROFESSIONAL_NET,
  title: null,
  thread: null,
  media: {
    allowsTextOnly: true,
    maxItems: 20,
    mixing: false,
    altTextMaxLength: null,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/gif'],
      maxPixels: 36_152_320,
      maxItems: 20,
      note: 'Secondary source.',
    }),
    video: video({
      mimeTypes: ['video/mp4'],
      maxSizeBytes: 500 * MB,
      minAspectRatio: 1 / 2.4,
      maxAspectRatio: 2.4,
      minDurationSec: 3,
      maxDurationSec: 30 * MINUTE,
      note: 'Secondary source; some say 5 GB.',
    }),
    note: null,
  },
  formats: [
    format('IMAGE', {
      mediaKinds: IMAGE_OR_VIDEO,
      maxItems: 20,
      note: 'One image or video, or 2 to 20 images published as a multi-image post.',
    }),
  ],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'landscape'), onCanvas('IMAGE', 'feed_square')],
  options: NO_OPTIONS,
  deleteSupported: true,
  insights: {
    importsPosts: false,
    followers: false,
    postMetrics: [],
    note: 'This service collects no insights from this network.',
  },
  inbox: inbox({ note: 'Reading comments needs a scope not yet approved for this service.' }),
  limits: [limit('posts', 150, DAY, 'Secondary source.')],
  note: null,
}

export const MESSAGING_NET_RULES: PlatformRules = {
  platform: 'MESSAGING_NET',
  display: NETWORK_DISPLAY.MESSAGING_NET,
  name: 'messaging app',
  connections: ['BOT_TOKEN', 'SANDBOX'],
  threadModel: true,
  caption: captionFrom(MESSAGING_TEXT, {
    maxLengthWithImages: 1024,
    maxLengthWithVideo: 1024,
    note: 'A text message takes 4,096; a media caption 1,024. The counting unit is not stated; UTF-16 is the likely one.',
  }),
  formatting: FORMATTING.MESSAGING_NET,
  title: null,
  thread: {
    maxParts: SERVICE_THREAD_CAP,
    part: MESSAGING_TEXT,
    note: `${SERVICE_THREAD_CAP_NOTE} Each part replies to the previous message.`,
  },
  media: {
    allowsTextOnly: true,
    maxItems: 10,
    mixing: true,
    altTextMaxLength: null,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/webp'],
      maxSizeBytes: 10 * MB,
      maxWidthPlusHeight: 10_000,
      minAspectRatio: 1 / 20,
      maxAspectRatio: 20,
      maxItems: 10,
      note: 'Caps for uploaded files; a photo sent by URL may be at most 5 MB.',
    }),
    video: video({
      mimeTypes: ['video/mp4'],
      maxSizeBytes: 50 * MB,
      maxItems: 10,
      note: 'Caps for uploaded files; a video sent by URL may be at most 20 MB.',
    }),
    note: null,
  },
  formats: [
    format('IMAGE', { mediaKinds: IMAGE_OR_VIDEO, maxItems: 10, note: '2 to 10 items are published as an album.' }),
  ],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'feed_square'), onCanvas('IMAGE', 'landscape')],
  options: NO_OPTIONS,
  deleteSupported: true,
  insights: {
    importsPosts: false,
    followers: true,
    postMetrics: [],
    note: 'Member count only; the network reports no per-message figures.',
  },
  inbox: inbox({ note: "A bot cannot read a channel's history or its discussion afterwards." }),
  limits: [limit('posts', 20, MINUTE, 'About 20 messages a minute in a group; the network publishes no exact limits.')],
  note: 'A message can be deleted only within 48 hours of sending.',
}

export const CHAT_NET_RULES: PlatformRules = {
  platform: 'CHAT_NET',
  display: NETWORK_DISPLAY.CHAT_NET,
  name: 'chat community',
  connections: ['WEBHOOK', 'BOT_TOKEN', 'SANDBOX'],
  threadModel: true,
  caption: captionFrom(CHAT_TEXT),
  formatting: FORMATTING.CHAT_NET,
  title: null,
  thread: {
    maxParts: SERVICE_THREAD_CAP,
    part: CHAT_TEXT,
    note: `${SERVICE_THREAD_CAP_NOTE} Through a bot each part replies to the previous message; through a webhook the parts follow as separate messages.`,
  },
  media: {
    allowsTextOnly: true,
    maxItems: 10,
    mixing: true,
    altTextMaxLength: 1024,
    image: image({ mimeTypes: ['image/*'], maxSizeBytes: 10 * MiB, maxItems: 10 }),
    video: video({ mimeTypes: ['video/*'], maxSizeBytes: 10 * MiB, maxItems: 10 }),
    note: '10 MiB per file unless the server allows more; 10 files per message is unverified.',
  },
  formats: [format('IMAGE', { mediaKinds: IMAGE_OR_VIDEO, maxItems: 10 })],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'landscape')],
  options: NO_OPTIONS,
  deleteSupported: true,
  insights: {
    importsPosts: false,
    followers: false,
    postMetrics: [],
    note: 'This service collects no insights from this network.',
  },
  inbox: inbox({ note: 'Messages are sent through a webhook or a bot that reads no replies.' }),
  limits: [],
  note: null,
}
