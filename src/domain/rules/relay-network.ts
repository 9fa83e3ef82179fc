/**
 * Rules of the relay network (Nostr): a kind 1 text note signed by the account's key and sent to
 * its write relays. The protocol itself sets no caption, media or thread limit; each relay sets
 * its own. The numbers below are this service's choices, kept well inside what relays commonly
 * accept, and each note says so (docs/networks/relay.md).
 */
import { NETWORK_DISPLAY } from './display'
import { FORMATTING } from './formatting'
import type { PlatformRules } from './schema'
import {
  IMAGE_OR_VIDEO,
  MB,
  NO_OPTIONS,
  SERVICE_THREAD_CAP,
  captionFrom,
  format,
  image,
  textBudget,
  video,
  inbox,
} from './shared'

/**
 * A choice, not a protocol limit: 8,000 characters and 32,000 UTF-8 bytes of content keep a signed
 * note with its tags far below the 64 KiB event size common relay software refuses above.
 */
const RELAY_TEXT = textBudget(8000, 'characters', { maxBytes: 32_000 })

export const RELAY_NET_RULES: PlatformRules = {
  platform: 'RELAY_NET',
  display: NETWORK_DISPLAY.RELAY_NET,
  name: 'relay network',
  connections: ['REMOTE_SIGNER', 'PRIVATE_KEY', 'SANDBOX'],
  threadModel: true,
  caption: captionFrom(RELAY_TEXT, {
    note: "The protocol sets no length; this is the service's conservative budget, below the event size relays commonly accept.",
  }),
  formatting: FORMATTING.RELAY_NET,
  title: null,
  thread: {
    maxParts: SERVICE_THREAD_CAP,
    part: RELAY_TEXT,
    note: 'Parts are replies to the first note (root and reply tags); 25 follow-ups is this service’s cap.',
  },
  media: {
    allowsTextOnly: true,
    maxItems: 4,
    mixing: false,
    altTextMaxLength: 1000,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
      maxSizeBytes: 16 * MB,
      maxItems: 4,
    }),
    video: video({ mimeTypes: ['video/mp4', 'video/webm'], maxSizeBytes: 100 * MB }),
    note: "Media are not uploaded to relays: the note carries each item's public URL (this service's storage) with an imeta tag. Sizes and counts are this service's choices.",
  },
  formats: [format('IMAGE', { mediaKinds: IMAGE_OR_VIDEO, maxItems: 4, note: 'Text, up to 4 images, or one video.' })],
  defaultFormat: 'IMAGE',
  recommended: [],
  options: NO_OPTIONS,
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: false,
    postMetrics: [],
    note: 'Relays keep no counts; reactions and replies are scattered over relays the service does not read.',
  },
  inbox: inbox({
    comments: true,
    reply: true,
    like: true,
    mentions: true,
    note: 'Replies and mentions are notes referring to the post or the account, read from its relays.',
  }),
  limits: [],
  note: 'A deletion is a request (a kind 5 event): relays may keep the note, and clients may still show it.',
}
