/**
 * Which containers a photo-network post is built from (IG User Media reference, Content Publishing
 * guide): one image, a reel (every single video, shared to the feed), a story, or a carousel of
 * child containers under a CAROUSEL parent. Rules as data first.
 */
import type { PublishMedia, TargetContent } from '../../adapter'
import { NetworkFailure } from '../../http'
import type { GraphHost } from '../meta/container-publish'
import type { ContainerPlan, Params } from '../meta/containers'

export const PHOTO_NETWORK = 'PHOTO_NET'
/** The Graph API version in every path, on both hosts. */
export const PHOTO_GRAPH_VERSION = 'v23.0'
/** The Graph host the adapter's calls go to (the base URL says which of the two). */
export const PHOTO_HOST: GraphHost = { network: PHOTO_NETWORK, version: PHOTO_GRAPH_VERSION }
/** Seconds between container status checks (Meta suggests polling about once a minute for up to 5 minutes). */
export const PHOTO_POLL_SEC = 20
/**
 * A long-lived Instagram-login token (60 days) is renewed when it has less than this left; it must be
 * 24 h old to renew.
 */
export const PHOTO_REFRESH_MARGIN_SEC = 7 * 24 * 3600
/** Per-media metrics asked for (one call), and the Insights field each fills (`impressions`/`plays` are gone since v22). */
export const PHOTO_MEDIA_METRICS = {
  likes: 'likes',
  comments: 'comments',
  shares: 'shares',
  saved: 'saves',
  views: 'views',
  reach: 'reach',
} as const
/** Formats that take a first comment (a story has no comments). */
export const PHOTO_COMMENT_FORMATS = ['IMAGE', 'CAROUSEL', 'REEL']
/** How many recent posts are searched for one whose publish answer was lost. */
export const PHOTO_RECOVERY_LIST_LIMIT = 25
/**
 * The wait when `content_publishing_limit` says the rolling 24 h publishing quota is used up (the network
 * names no reset time).
 */
export const PHOTO_QUOTA_WAIT_SEC = 3600

/**
 * A container in `ERROR` carries an error subcode in `status` (IG Container reference); what the
 * common ones mean (from the subcode list an open-source scheduler keeps), in words a person can act on.
 */
export const PHOTO_CONTAINER_ERRORS: Record<string, string> = {
  '2207003': 'fetching the media from its URL timed out',
  '2207004': 'the image is too large (8 MB at most)',
  '2207005': 'the image format is not supported (use JPEG)',
  '2207009': 'the aspect ratio is out of range (4:5 to 1.91:1)',
  '2207010': 'the caption is too long',
  '2207020': 'the media container expired',
  '2207026': 'the video format is not supported (MP4 or MOV, H.264/HEVC, AAC)',
  '2207052': 'the media could not be fetched from its URL',
}

/** The words for a container's `status` (a bare subcode, or a text that may name one). */
export function containerErrorWords(status: unknown): string | null {
  if (typeof status !== 'string' || !status.trim()) return null
  const code = /\b(22070\d\d)\b/.exec(status)?.[1]
  const words = code ? PHOTO_CONTAINER_ERRORS[code] : undefined
  if (!words) return status
  return /^\d+$/.test(status.trim()) ? `${words} (${code})` : `${words} (${status.trim()})`
}

/**
 * The reel's audio (content.audio, volumes 0..1) as the Graph field `audio_configuration`
 * (audio_id, audio_volume and video_volume in percent); only the Facebook-login host takes it.
 */
export function audioParams(audio: Record<string, unknown> | null, connection: string): Params {
  if (!audio || connection !== 'SOCIALGRAPH_LOGIN' || typeof audio.audioId !== 'string') return {}
  const config: Record<string, unknown> = { audio_id: audio.audioId }
  if (typeof audio.audioVolume === 'number') config.audio_volume = Math.round(audio.audioVolume * 100)
  if (typeof audio.videoVolume === 'number') config.video_volume = Math.round(audio.videoVolume * 100)
  return { audio_configuration: JSON.stringify(config) }
}

/** `alt_text` (added 24 Mar 2025) is for image posts only: reels and stories refuse it. */
const altText = (m: PublishMedia): Params => (m.altText ? { alt_text: m.altText } : {})

function reel(m: PublishMedia, content: TargetContent, connection: string): Params {
  return {
    media_type: 'REELS',
    video_url: m.url,
    caption: content.text,
    share_to_feed: 'true',
    ...audioParams(content.audio, connection),
  }
}

/**
 * A carousel item: `alt_text` goes on image items (the reference's image request takes `is_carousel_item`
 * and `alt_text` together).
 */
function carouselChild(m: PublishMedia): Params {
  return m.type === 'VIDEO'
    ? { media_type: 'VIDEO', video_url: m.url, is_carousel_item: 'true' }
    : { image_url: m.url, is_carousel_item: 'true', ...altText(m) }
}

/** The containers for this content (TargetContent.type is the format after fallback). */
export function photoPlan(content: TargetContent, connection: string): ContainerPlan {
  const media = content.media
  const first = media[0]
  if (!first) throw new NetworkFailure('rejected', `${PHOTO_NETWORK} posts need an image or a video.`)
  switch (content.type) {
    case 'STORY':
      // One item; a story has no caption.
      return {
        children: [],
        head:
          first.type === 'VIDEO'
            ? { media_type: 'STORIES', video_url: first.url }
            : { media_type: 'STORIES', image_url: first.url },
      }
    case 'REEL':
      if (first.type !== 'VIDEO') throw new NetworkFailure('rejected', `A ${PHOTO_NETWORK} reel needs a video.`)
      return { children: [], head: reel(first, content, connection) }
    default:
      if (media.length > 1 || content.type === 'CAROUSEL') {
        return { children: media.map(carouselChild), head: { media_type: 'CAROUSEL', caption: content.text } }
      }
      if (first.type === 'VIDEO') return { children: [], head: reel(first, content, connection) }
      return { children: [], head: { image_url: first.url, caption: content.text, ...altText(first) } }
  }
}
