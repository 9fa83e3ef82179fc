/** The closed lists the rules registry speaks in. */

/** How a network measures text. `weighted` follows twitter-text config v3 (NFC, 280, t.co = 23). */
export const CAPTION_COUNTINGS = [
  'weighted',
  'graphemes',
  'utf16',
  'characters',
  'characters_emoji_bytes',
  'utf8_bytes',
] as const
export const MEDIA_KINDS = ['image', 'video'] as const
/** The image canvases of `POST /v1/media/{id}/variants`. */
export const CANVAS_NAMES = ['feed_portrait', 'feed_square', 'landscape', 'story'] as const
export const POST_METRICS = ['likes', 'comments', 'shares', 'views', 'saves', 'clicks', 'impressions', 'reach'] as const
/** The inbox actions a network may allow on a comment; a 422 names the one refused. */
export const INBOX_ACTIONS = ['reply', 'hide', 'delete', 'like'] as const
export const VIDEO_NET_PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const
export const LIMITED_ACTIONS = ['posts', 'replies', 'reels', 'media_uploads', 'requests'] as const
