/**
 * Rules of the video networks, where every post needs media: the short-video network (TikTok
 * Content Posting API) and the video-sharing network (YouTube Data API v3). The image-first
 * networks are in photo-and-pinboard-networks.ts. Values from each network's own reference; a
 * value known only from a secondary source says so in its `note`.
 */
import { NETWORK_DISPLAY } from './display'
import type { PlatformRules } from './schema'
import {
  GB,
  IMAGE_OR_VIDEO,
  MB,
  MINUTE,
  NO_OPTIONS,
  caption,
  format,
  image,
  onCanvas,
  sized,
  title,
  video,
  inbox,
} from './shared'
import { FORMATTING } from './formatting'

export const SHORTVIDEO_NET_RULES: PlatformRules = {
  platform: 'SHORTVIDEO_NET',
  display: NETWORK_DISPLAY.SHORTVIDEO_NET,
  name: 'short-video network',
  connections: ['DIRECT_LOGIN', 'SANDBOX'],
  threadModel: false,
  caption: caption(2200, 'utf16', {
    maxLengthWithImages: 4000,
    note: 'A video post publishes the caption as its 2,200-unit title; a photo post as its 4,000-unit description.',
  }),
  formatting: FORMATTING.SHORTVIDEO_NET,
  title: title(90, 'utf16', {
    required: false,
    media: 'image',
    note: 'Photo posts only: a short title above the description.',
  }),
  thread: null,
  media: {
    allowsTextOnly: false,
    maxItems: 35,
    mixing: false,
    altTextMaxLength: null,
    image: image({
      mimeTypes: ['image/jpeg', 'image/webp'],
      maxSizeBytes: 20 * MB,
      maxWidth: 1920,
      maxHeight: 1920,
      maxPixels: 1920 * 1080,
      maxItems: 35,
      note: 'Photos up to 1080p (secondary source); PNG is refused. The `story` canvas fits.',
    }),
    video: video({
      mimeTypes: ['video/mp4', 'video/webm', 'video/quicktime'],
      maxSizeBytes: 4 * GB,
      minWidth: 360,
      maxWidth: 4096,
      minHeight: 360,
      maxHeight: 4096,
      minDurationSec: 3,
      maxDurationSec: 10 * MINUTE,
      note: 'Each creator has their own maximum duration (often 600 s); the publisher checks it before uploading.',
    }),
    note: null,
  },
  formats: [
    format('REEL', {
      mediaKinds: IMAGE_OR_VIDEO,
      maxItems: 35,
      note: 'Every post is a video post, or a photo post of 1 to 35 photos; the media decides which.',
    }),
  ],
  defaultFormat: 'REEL',
  recommended: [sized('REEL', 1080, 1920, 'Vertical 9:16 video.'), onCanvas('REEL', 'story', 'Photo posts.')],
  options: {
    ...NO_OPTIONS,
    videoNetOptions: {
      privacyLevels: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
      defaultPrivacyLevel: 'SELF_ONLY',
      switches: ['disableComment', 'disableDuet', 'disableStitch', 'brandContentToggle', 'brandOrganicToggle'],
      note: "The privacy level must be one the creator's account offers; unaudited apps may only post SELF_ONLY.",
    },
  },
  deleteSupported: false,
  insights: {
    importsPosts: false,
    followers: false,
    postMetrics: [],
    note: "Needs a scope not yet approved for this service: the adapter lists an account's videos with their counts through the Display API's List Videos, which needs the video.list scope the sign-in does not ask for yet.",
  },
  inbox: inbox({
    note: 'The Display and Content Posting APIs document no comment endpoints (comments are readable only through the Research API, which is for researchers), so the inbox reads none.',
  }),
  limits: [],
  note: null,
}

export const VIDEOSHARE_NET_RULES: PlatformRules = {
  platform: 'VIDEOSHARE_NET',
  display: NETWORK_DISPLAY.VIDEOSHARE_NET,
  name: 'video-sharing network',
  connections: ['DIRECT_LOGIN', 'SANDBOX'],
  threadModel: false,
  caption: caption(5000, 'utf8_bytes', {
    forbiddenCharacters: ['<', '>'],
    note: 'The caption is published as the video description.',
  }),
  formatting: FORMATTING.VIDEOSHARE_NET,
  title: title(100, 'characters', {
    required: true,
    forbiddenCharacters: ['<', '>'],
    note: "The video title is the caption's first line.",
  }),
  thread: null,
  media: {
    allowsTextOnly: false,
    maxItems: 1,
    mixing: false,
    altTextMaxLength: null,
    image: null,
    video: video({
      mimeTypes: ['video/*'],
      maxSizeBytes: 256 * GB,
      maxDurationSec: 15 * MINUTE,
      note: 'Channels the network has verified may upload up to 12 hours; 15 minutes is the cap for the rest (secondary source).',
    }),
    note: null,
  },
  formats: [
    format('REEL', {
      mediaKinds: ['video'],
      maxItems: 1,
      note: 'Every post is one video; the network itself files vertical or square videos of up to 3 minutes as short videos.',
    }),
  ],
  defaultFormat: 'REEL',
  recommended: [sized('REEL', 1920, 1080, 'Landscape 16:9.'), sized('REEL', 1080, 1920, 'Vertical short video.')],
  options: NO_OPTIONS,
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: true,
    postMetrics: ['likes', 'comments', 'views'],
    note: null,
  },
  inbox: inbox({
    comments: true,
    reply: true,
    hide: true,
    delete: true,
    replyMaxLength: 10_000,
    note: "Comment threads on the channel's videos with all their replies. Hiding holds a comment for review (shown again by publishing it); only the channel's own comments can be deleted; a reply is a comment of up to 10,000 characters on the top-level comment. The API has no comment like and no mentions.",
  }),
  limits: [],
  note: 'Uploads from an unaudited API project stay private.',
}
