/**
 * Audio catalogues for the formats that take a chosen track (reels, short video): none is read by
 * this service today, so every platform answers an empty list and says why in words. Where the
 * network documents a catalogue (the photo network's audio search, Facebook-Login accounts only),
 * the reason says so and how to use a track id known otherwise.
 */
import type { PlatformId, PostType } from '../vocabulary'
import { RULES } from './index'

export interface AudioCatalogue {
  platform: PlatformId
  /** Formats of this platform that take `audio` (`options.audio.formats` of the registry). */
  formats: PostType[]
  audio: { id: string; title: string }[]
  reason: string
}

const NO_CATALOGUE = "This network's API offers no audio catalogue to third parties"

const REASONS: Partial<Record<PlatformId, string>> = {
  PHOTO_NET:
    'The network documents an audio search for reels, for accounts connected through SOCIALGRAPH_LOGIN only; this service does not read it yet. Put a track id you know in `audio.audioId` of a REEL post.',
  SHORTVIDEO_NET: `${NO_CATALOGUE}, and its posting API takes no chosen track; the sound of the uploaded video is published.`,
  SOCIALGRAPH_NET: `${NO_CATALOGUE} for page reels; the sound of the uploaded video is published.`,
  VIDEOSHARE_NET: `${NO_CATALOGUE}; the sound of the uploaded video is published.`,
}

/** The (empty) catalogue of one platform and why it is empty. */
export function audioCatalogue(platform: PlatformId): AudioCatalogue {
  const rules = RULES[platform]
  return {
    platform,
    formats: rules.options.audio?.formats ?? [],
    audio: [],
    reason: REASONS[platform] ?? 'This network has no reel or short-video format that takes a chosen audio track.',
  }
}
