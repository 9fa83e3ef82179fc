/**
 * Audio catalogues for the formats that take a chosen track (reels). A network's catalogue is read
 * per account, where the rules registry names the account's connection in `options.audio.catalogue`
 * (today the photo network's audio search, for accounts connected through SOCIALGRAPH_LOGIN); every
 * other case answers an empty list and says why in words.
 */
import type { Connection, PlatformId, PostType } from '../vocabulary'
import { RULES } from './index'

/** The catalogues a network may keep: licensed music, and the sounds of members' reels. */
export const AUDIO_KINDS = ['music', 'original_sound'] as const
export type AudioKind = (typeof AUDIO_KINDS)[number]

export interface AudioCatalogue {
  platform: PlatformId
  /** Formats of this platform that take `audio` (`options.audio.formats` of the registry). */
  formats: PostType[]
  audio: { id: string; title: string; artist: string | null; durationSec: number | null }[]
  /** `cursor` for the next page; null on the last page, and when nothing was read. */
  nextCursor: string | null
  reason: string
}

const NO_CATALOGUE = "This network's API offers no audio catalogue to third parties"

const REASONS: Partial<Record<PlatformId, string>> = {
  SHORTVIDEO_NET: `${NO_CATALOGUE}, and its posting API takes no chosen track; the sound of the uploaded video is published.`,
  SOCIALGRAPH_NET: `${NO_CATALOGUE} for page reels; the sound of the uploaded video is published.`,
  VIDEOSHARE_NET: `${NO_CATALOGUE}; the sound of the uploaded video is published.`,
}

/** The connections through which this platform's catalogue is read; [] when it has none. */
export function catalogueConnections(platform: PlatformId): Connection[] {
  return RULES[platform].options.audio?.catalogue ?? []
}

/** The platform's catalogue, as far as it is known without reading it: empty, and why. */
export function audioCatalogue(
  platform: PlatformId,
  account: { id: string; connection: Connection } | null = null,
): AudioCatalogue {
  return {
    platform,
    formats: RULES[platform].options.audio?.formats ?? [],
    audio: [],
    nextCursor: null,
    reason: emptyReason(platform, account),
  }
}

function emptyReason(platform: PlatformId, account: { id: string; connection: Connection } | null): string {
  const through = catalogueConnections(platform)
  if (through.length === 0)
    return REASONS[platform] ?? 'This network has no reel or short-video format that takes a chosen audio track.'
  const needs = `accounts connected through ${through.join(' or ')}`
  if (!account) return `The network's audio search is read per account: give the accountId of one of its ${needs}.`
  return `The network's audio search is only for ${needs}; account ${account.id} is connected through ${account.connection}. Reconnect it that way to list and use tracks.`
}

/** Why a list read from the network is what it is. */
export function readCatalogueReason(kind: AudioKind, query: string | null): string {
  const what = kind === 'music' ? 'licensed music' : "sounds of members' reels"
  return query
    ? `The network's ${what} matching "${query}", for this account.`
    : `The network's trending ${what} for this account (give a query to search).`
}
