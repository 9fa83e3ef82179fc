/**
 * Rules of the workplace chat network (Slack Web API): a bot's message to a channel chosen per
 * target, its caption as mrkdwn-safe text, images as image blocks, videos as files shared through
 * the external upload flow, thread parts as replies under the head message. Values from the
 * network's own reference (docs/networks/workchat.md lists the pages); a value this service sets
 * itself, or one the reference does not state, says so in its `note`.
 */
import { NETWORK_DISPLAY } from './display'
import { FORMATTING } from './formatting'
import type { PlatformRules } from './schema'
import {
  GB,
  IMAGE_OR_VIDEO,
  MINUTE,
  NO_OPTIONS,
  SERVICE_THREAD_CAP,
  SERVICE_THREAD_CAP_NOTE,
  captionFrom,
  format,
  image,
  limit,
  onCanvas,
  textBudget,
  video,
  inbox,
} from './shared'

/**
 * A message's `text`: the reference asks for at most 4,000 characters (and truncates beyond
 * 40,000); this service holds the caption to the 4,000 the reference recommends.
 */
export const WORKCHAT_TEXT = textBudget(4000, 'characters')
/** Images and files in one message: this service's cap (a message takes at most 50 blocks). */
export const WORKCHAT_MAX_MEDIA = 10

export const WORKCHAT_NET_RULES: PlatformRules = {
  platform: 'WORKCHAT_NET',
  display: NETWORK_DISPLAY.WORKCHAT_NET,
  name: 'workplace chat',
  connections: ['DIRECT_LOGIN', 'BOT_TOKEN', 'SANDBOX'],
  threadModel: true,
  caption: captionFrom(WORKCHAT_TEXT, {
    note: 'The network recommends at most 4,000 characters and cuts a message at 40,000. &, < and > are sent escaped (&amp;, &lt;, &gt;), which the network counts as written.',
  }),
  formatting: FORMATTING.WORKCHAT_NET,
  title: null,
  thread: {
    maxParts: SERVICE_THREAD_CAP,
    part: WORKCHAT_TEXT,
    note: `${SERVICE_THREAD_CAP_NOTE} Each part is a reply in the thread of the head message.`,
  },
  media: {
    allowsTextOnly: true,
    maxItems: WORKCHAT_MAX_MEDIA,
    mixing: false,
    altTextMaxLength: 2000,
    image: image({
      mimeTypes: ['image/png', 'image/jpeg', 'image/gif'],
      maxItems: WORKCHAT_MAX_MEDIA,
      note: 'Shown as image blocks the network fetches from our public URL (png, jpg, jpeg and gif); the reference states no size limit for them.',
    }),
    video: video({
      mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm'],
      maxSizeBytes: 1 * GB,
      maxItems: WORKCHAT_MAX_MEDIA,
      note: 'Uploaded as files and shared into the channel with the caption as their comment; 1 GB per file is from the help centre, not the API reference.',
    }),
    note: 'Images and videos are not mixed in one message: images go as blocks, videos as shared files. 10 per message is this service cap.',
  },
  formats: [format('IMAGE', { mediaKinds: IMAGE_OR_VIDEO, maxItems: WORKCHAT_MAX_MEDIA })],
  defaultFormat: 'IMAGE',
  recommended: [onCanvas('IMAGE', 'landscape')],
  options: {
    ...NO_OPTIONS,
    destination: {
      noun: 'channel',
      nounPlural: 'channels',
      requiredToPublish: true,
      note: 'Public channels, which the bot joins on its first post, and the private channels it was invited to.',
    },
  },
  deleteSupported: true,
  insights: {
    importsPosts: false,
    followers: false,
    postMetrics: ['likes', 'comments'],
    note: 'Reactions (all emoji summed) as likes and thread replies as comments, read from the channel history.',
  },
  inbox: inbox({
    comments: true,
    reply: true,
    like: true,
    note: "Thread replies under the bot's message are its comments; liking adds a reaction.",
  }),
  limits: [limit('posts', 60, MINUTE, 'About one message a second per channel, with short bursts allowed.')],
  note: 'A bot posts only where it is a member: it joins a public channel by itself; a private channel needs the app invited first.',
}
