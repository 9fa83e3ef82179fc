/**
 * The input and output shapes of post validation. Plain data only: no database rows, no
 * request objects, so the posts service, the bulk importer and the tests build them alike.
 */
import type { ErrorCode } from '../errors'
import type { PostContent as WholeContent, VideoNetAccountOptions } from '../post-content'
import type { Connection, PlatformId } from '../vocabulary'
import type { MediaKind } from '../rules/schema'

export interface ValidationAccount {
  id: string
  platform: PlatformId
  connection: Connection
  /** The caption budget the network reported for this account (a paid tier); null or absent: the platform's. */
  captionMaxLength?: number | null
}

export interface ValidationMedia {
  id: string
  type: 'IMAGE' | 'VIDEO'
  mimeType: string
  sizeBytes: number
  /** null: unknown (never fails a check). */
  width: number | null
  height: number | null
  durationSec: number | null
}

/** The content the rules read: everything but the recurrence (checked against the post's time by its caller). */
export type PostContent = Omit<WholeContent, 'recurrence'>

export type { VideoNetAccountOptions }

/**
 * 'draft': content rules only. 'publish' (schedule, queue, publish now): also what a draft
 * may still lack, such as media on a media-only network or a carousel's minimum item count
 * (docs/decisions.md, "Drafts").
 */
export type ValidationIntent = 'draft' | 'publish'

/** One broken rule, naming the body field (`path`) and, where it applies, the platform and account. */
export interface Violation {
  code: ErrorCode
  path: string
  platform?: PlatformId
  accountId?: string
  message: string
  limit?: number
  actual?: number
}

export interface ValidationInput {
  content: PostContent
  accounts: ValidationAccount[]
  /** The assets of `content.mediaIds`, in that order (an id missing here is reported as `media_not_found`). */
  media: ValidationMedia[]
  intent: ValidationIntent
}

/** One media item where it sits in `mediaIds`. */
export interface PlacedMedia {
  index: number
  item: ValidationMedia
  kind: MediaKind
}

/** What every rule module reads: the input plus values derived from it once. */
export interface ValidationContext {
  content: PostContent
  accounts: ValidationAccount[]
  intent: ValidationIntent
  /** Distinct platforms of `accounts`, in order of first appearance. */
  platforms: PlatformId[]
  /** The media found, with their position in `mediaIds`. */
  media: PlacedMedia[]
  /** 'video' when any item is a video, 'image' when all are images, null without media. */
  mediaKind: MediaKind | null
}

/**
 * Something a write accepted but the caller likely did not mean; it never blocks the write.
 * `unknown_field`: a body field that is not part of the API (a typo such as `capton`), kept but
 * never read. `not_applicable`: a field that none of the post's networks uses. `token_expires`: a
 * target account's token expires before the post is due, and this service cannot renew it.
 */
export interface PostWarning {
  code: 'unknown_field' | 'not_applicable' | 'token_expires'
  message: string
  path?: string
  accountId?: string
}
