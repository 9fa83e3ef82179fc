/**
 * Rules of the image-first networks, where every post needs media: the photo-sharing network
 * (Instagram Graph API) and the pinboard network (Pinterest API v5). The video networks are in
 * video-networks.ts. Values from each network's own reference; a value known only from a
 * secondary source says so in its `note`.
 */
import { NETWORK_DISPLAY } from './display'
import type { PlatformRules } from './schema'
import {
  DAY,
  GB,
  IMAGE_OR_VIDEO,
  MB,
  MINUTE,
  NO_OPTIONS,
  caption,
  format,
  image,
  limit,
  onCanvas,
  sized,
  title,
  video,
  inbox,
} from './shared'
import { FORMATTING } from './formatting'

const FEED_ASPECT = { minImageAspectRatio: 0.8, maxImageAspectRatio: 1.91 }

export const PHOTO_NET_RULES: PlatformRules = {
  platform: 'PHOTO_NET',
  display: NETWORK_DISPLAY.PHOTO_NET,
  name: 'photo-sharing network',
  connections: ['SOCIALGRAPH_LOGIN', 'DIRECT_LOGIN', 'SANDBOX'],
  threadModel: false,
  caption: caption(2200, 'characters', {
    maxHashtags: 5,
    maxMentions: 20,
    note: 'The network does not name its counting unit; code points are the safe reading. Its reference allows 30 hashtags, but it has moved to 5 (secondary source), so 5 is enforced.',
  }),
  formatting: FORMATTING.PHOTO_NET,
  title: null,
  thread: null,
  media: {
    allowsTextOnly: false,
    maxItems: 10,
    mixing: true,
    altTextMaxLength: null,
    image: image({
      mimeTypes: ['image/jpeg'],
      maxSizeBytes: 8 * MB,
      minWidth: 320,
      maxItems: 10,
      note: 'Images wider than 1440 px are scaled down by the network, so no maximum width is enforced.',
    }),
    video: video({
      mimeTypes: ['video/mp4', 'video/quicktime'],
      maxSizeBytes: 300 * MB,
      maxWidth: 1920,
      minAspectRatio: 0.01,
      maxAspectRatio: 10,
      minDurationSec: 3,
      maxDurationSec: 15 * MINUTE,
      maxItems: 10,
      note: 'Reel limits (secondary source; some regions allow 1 GB). Every video is published as a reel.',
    }),
    note: null,
  },
  formats: [
    format('IMAGE', {
      mediaKinds: IMAGE_OR_VIDEO,
      maxItems: 10,
      ...FEED_ASPECT,
      note: 'Several items are published as a carousel; a single video as a reel shared to the feed.',
    }),
    format('CAROUSEL', { mediaKinds: IMAGE_OR_VIDEO, minItems: 2, maxItems: 10, ...FEED_ASPECT }),
    format('REEL', { mediaKinds: ['video'], maxItems: 1 }),
    format('STORY', {
      mediaKinds: IMAGE_OR_VIDEO,
      maxItems: 1,
      maxVideoDurationSec: 60,
      note: 'One item per story; the 60 s video cap is from a secondary source.',
    }),
  ],
  defaultFormat: 'IMAGE',
  recommended: [
    onCanvas('IMAGE', 'feed_portrait'),
    onCanvas('IMAGE', 'feed_square'),
    onCanvas('IMAGE', 'landscape'),
    onCanvas('CAROUSEL', 'feed_portrait', "Every item is cropped to the first item's ratio; keep them alike."),
    onCanvas('REEL', 'story'),
    onCanvas('STORY', 'story'),
  ],
  options: {
    ...NO_OPTIONS,
    firstComment: { formats: ['IMAGE', 'CAROUSEL', 'REEL'], maxLength: 2200, counting: 'characters' },
    audio: { formats: ['REEL'], connections: ['SOCIALGRAPH_LOGIN'], catalogue: ['SOCIALGRAPH_LOGIN'] },
  },
  deleteSupported: false,
  insights: {
    importsPosts: true,
    followers: true,
    postMetrics: ['likes', 'comments', 'shares', 'views', 'saves', 'reach'],
    note: "Recent media are read from the account's media list with their like and comment counts; the rest from each media's insights.",
  },
  inbox: inbox({
    comments: true,
    reply: true,
    hide: true,
    delete: true,
    mentions: true,
    note: "Comments and their replies on the account's media. A reply goes to the top-level comment (the network nests one level) and a hidden comment takes none. Mentions are the media the account is tagged in. The API has no comment like.",
  }),
  limits: [
    limit(
      'posts',
      50,
      DAY,
      "A carousel counts as one post. Older references say 25; the publisher reads the account's current quota.",
    ),
  ],
  note: 'Media is fetched by the network from a public URL.',
}

export const PINBOARD_NET_RULES: PlatformRules = {
  platform: 'PINBOARD_NET',
  display: NETWORK_DISPLAY.PINBOARD_NET,
  name: 'pinboard network',
  connections: ['DIRECT_LOGIN', 'SANDBOX'],
  threadModel: false,
  caption: caption(800, 'characters', {
    note: 'The caption becomes the pin description (800 in the API reference; the app shows 500).',
  }),
  formatting: FORMATTING.PINBOARD_NET,
  title: title(100, 'characters', {
    required: false,
    field: 'pinboardNetOptions.title',
    note: "When `pinboardNetOptions.title` is unset, the caption's first line is used.",
  }),
  thread: null,
  media: {
    allowsTextOnly: false,
    maxItems: 5,
    mixing: false,
    altTextMaxLength: 500,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/tiff'],
      maxSizeBytes: 20 * MB,
      maxItems: 5,
      note: 'Size cap from a secondary source.',
    }),
    video: video({
      mimeTypes: ['video/mp4', 'video/quicktime', 'video/x-m4v'],
      maxSizeBytes: 2 * GB,
      minDurationSec: 4,
      maxDurationSec: 15 * MINUTE,
      note: 'Secondary source. The cover is taken from a frame of the video.',
    }),
    note: null,
  },
  formats: [
    format('IMAGE', {
      mediaKinds: IMAGE_OR_VIDEO,
      maxItems: 5,
      sameDimensions: true,
      note: 'One image, one video, or 2 to 5 images published as a carousel pin.',
    }),
    format('CAROUSEL', { mediaKinds: ['image'], minItems: 2, maxItems: 5, sameDimensions: true }),
  ],
  defaultFormat: 'IMAGE',
  recommended: [
    sized('IMAGE', 1000, 1500, '2:3 is the ideal pin; `feed_portrait` is the closest canvas.'),
    onCanvas('IMAGE', 'feed_portrait'),
    onCanvas('CAROUSEL', 'feed_square'),
  ],
  options: {
    ...NO_OPTIONS,
    pinboardNetBoards: { requiredToPublish: true },
    pinboardNetOptions: { titleMaxLength: 100 },
    linkUrl: { use: 'destination', maxLength: 2048 },
    destination: {
      noun: 'board',
      nounPlural: 'boards',
      requiredToPublish: true,
      note: '`destinations` and the older `pinboardNetBoards` both set the board; both naming different boards is refused.',
    },
  },
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: true,
    postMetrics: ['views', 'saves'],
    note: 'Imported posts are the account’s pins (List Pins) with their lifetime impressions, saves, clicks, reactions and comments.',
  },
  inbox: inbox({ note: "API v5 has no endpoint to read or answer a pin's comments, so the inbox reads none." }),
  limits: [],
  note: 'Apps with trial access create pins only their creator can see.',
}
