/**
 * The rules registry: every platform's caption budget and counting, media types, sizes,
 * dimensions, durations and counts, thread cap and formats, as data. `GET /v1/platforms`
 * serves `RULES` as is (schema: `RulesRegistrySchema` in ./schema), and the validator
 * and the publisher read the same object. The helpers below only look values up.
 */
import { PLATFORM_IDS, type PlatformId, type PostType } from '../vocabulary'
import type { FormatRules, MediaKind, PlatformRules, RulesRegistry } from './schema'
import { BLOG_NET_RULES } from './blog-network'
import { PHOTO_NET_RULES, PINBOARD_NET_RULES } from './photo-and-pinboard-networks'
import { SHORTVIDEO_NET_RULES, VIDEOSHARE_NET_RULES } from './video-networks'
import {
  CHAT_NET_RULES,
  MESSAGING_NET_RULES,
  PROFESSIONAL_NET_RULES,
  SOCIALGRAPH_NET_RULES,
} from './page-and-chat-networks'
import { RELAY_NET_RULES } from './relay-network'
import { COMMUNITY_NET_RULES } from './community-network'
import { LOCAL_NET_RULES } from './local-network'
import { WORKCHAT_NET_RULES } from './workchat-network'
import { FORUM_NET_RULES } from './forum-network'
import { DEVBLOG_NET_RULES } from './devblog-network'
import { SITE_NET_RULES } from './site-network'
import { FEDERATED_NET_RULES, MICROBLOG_NET_RULES, OPENPROTOCOL_NET_RULES, TEXTTHREAD_NET_RULES } from './text-networks'

export { CANVASES } from './shared'
export { NETWORK_DISPLAY } from './display'

export const RULES: RulesRegistry = {
  PHOTO_NET: PHOTO_NET_RULES,
  SHORTVIDEO_NET: SHORTVIDEO_NET_RULES,
  MICROBLOG_NET: MICROBLOG_NET_RULES,
  MESSAGING_NET: MESSAGING_NET_RULES,
  SOCIALGRAPH_NET: SOCIALGRAPH_NET_RULES,
  PROFESSIONAL_NET: PROFESSIONAL_NET_RULES,
  TEXTTHREAD_NET: TEXTTHREAD_NET_RULES,
  OPENPROTOCOL_NET: OPENPROTOCOL_NET_RULES,
  VIDEOSHARE_NET: VIDEOSHARE_NET_RULES,
  PINBOARD_NET: PINBOARD_NET_RULES,
  FEDERATED_NET: FEDERATED_NET_RULES,
  CHAT_NET: CHAT_NET_RULES,
  FORUM_NET: FORUM_NET_RULES,
  LOCAL_NET: LOCAL_NET_RULES,
  BLOG_NET: BLOG_NET_RULES,
  WORKCHAT_NET: WORKCHAT_NET_RULES,
  SITE_NET: SITE_NET_RULES,
  COMMUNITY_NET: COMMUNITY_NET_RULES,
  RELAY_NET: RELAY_NET_RULES,
  DEVBLOG_NET: DEVBLOG_NET_RULES,
}

export function rulesFor(platform: PlatformId): PlatformRules {
  return RULES[platform]
}

/** Platforms where `threadParts` applies, in platform-id order. */
export const THREAD_PLATFORMS: readonly PlatformId[] = PLATFORM_IDS.filter((id) => RULES[id].threadModel)

/** The format a post of `requested` type is published in: itself if honoured, else the platform's default. */
export function effectiveFormat(platform: PlatformId, requested: PostType): PostType {
  const rules = RULES[platform]
  return rules.formats.some((f) => f.type === requested) ? requested : rules.defaultFormat
}

/** The rules of the format a post of `requested` type is published in on `platform`. */
export function formatRulesFor(platform: PlatformId, requested: PostType): FormatRules {
  const rules = RULES[platform]
  const type = effectiveFormat(platform, requested)
  const found = rules.formats.find((f) => f.type === type)
  if (!found) throw new Error(`${platform} has no rules for its default format ${type}`)
  return found
}

/**
 * The caption budget on `platform` for a post carrying `media`: 'video' when any item is a
 * video, 'image' when all are images, null for a text-only post.
 */
export function captionMaxLength(platform: PlatformId, media: MediaKind | null): number {
  const caption = RULES[platform].caption
  if (media === 'video') return caption.maxLengthWithVideo ?? caption.maxLength
  if (media === 'image') return caption.maxLengthWithImages ?? caption.maxLength
  return caption.maxLength
}
