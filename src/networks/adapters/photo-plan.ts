/**
 * Which containers a photo-network post is built from (IG User Media reference, Content Publishing
 * guide): one image, a reel (every single video, shared to the feed), a story, or a carousel of
 * child containers under a CAROUSEL parent. Rules as data first.
 */
import type { PublishMedia, TargetContent } from '../adapter'
import { NetworkFailure } from '../http'
import type { ContainerPlan, Params } from './meta-containers'

export const PHOTO_NETWORK = 'PHOTO_NET'
/** The Graph API version in every path, on both hosts. */
export const PHOTO_GRAPH_VERSION = 'v23.0'
/** Seconds between container status checks (Meta suggests polling about once a minute for up to 5 minutes). */
export const PHOTO_POLL_SEC = 20
/** A long-lived Instagram-login token (60 days) is renewed when it has less than this left; it must be 24 h old to renew. */
export const PHOTO_REFRESH_MARGIN_SEC = 7 * 24 * 3600
/** Per-media metrics asked for, and the Insights field each fills (`impressions`/`plays` are gone since v22). */
export const PHOTO_MEDIA_METRICS = { likes: 'likes', comments: 'comments', shares: 'shares', saved: 'saves', views: 'views' } as const
/** Formats that take a first comment (a story has no comments). */
export const PHOTO_COMMENT_FORMATS = ['IMAGE', 'CAROUSEL', 'REEL']
/** How many recent posts are searched for one whose publish answer was lost. */
export const PHOTO_RECOVERY_LIST_LIMIT = 25

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

const altText = (m: PublishMedia): Params => (m.altText ? { alt_text: m.altText } : {})

function reel(m: PublishMedia, content: TargetContent, connection: string): Params {
  return { media_type: 'REELS', video_url: m.url, caption: content.text, share_to_feed: 'true', ...audioParams(content.audio, connection) }
}

function carouselChild(m: PublishMedia): Params {
  return m.type === 'VIDEO' ? { media_type: 'VIDEO', video_url: m.url, is_carousel_item: 'true' } : { image_url: m.url, is_carousel_item: 'true' }
}

/** The containers for this content (TargetContent.type is the format after fallback). */
export function photoPlan(content: TargetContent, connection: string): ContainerPlan {
  const media = content.media
  const first = media[0]
  if (!first) throw new NetworkFailure('rejected', `${PHOTO_NETWORK} posts need an image or a video.`)
  switch (content.type) {
    case 'STORY':
      // One item; a story has no caption.
      return { children: [], head: first.type === 'VIDEO' ? { media_type: 'STORIES', video_url: first.url } : { media_type: 'STORIES', image_url: first.url } }
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
