/**
 * Client review links: a signed, expiring, revocable address that shows one account group's
 * upcoming posts to someone without an account, who may approve them or ask for changes.
 *
 * The token is `<link id>.<expiry, epoch seconds>.<random>.<signature>`: the signature (HMAC-SHA256
 * under a key derived from the service's secret, made by the services) covers the first three parts,
 * so a made-up or altered token is refused before the database is read; the random part (26 base62
 * characters, about 155 bits) keeps it unguessable even to someone who knows the link's id. Only the
 * token's SHA-256 is stored.
 */
import type { PostStatus } from './vocabulary'

/** How long a link lives: 1 to 90 days, 14 unless the creator says otherwise. */
export const REVIEW_LINK_DAYS = { min: 1, max: 90, default: 14 } as const

/** The random part's length in base62 characters. */
export const REVIEW_TOKEN_RANDOM_LENGTH = 26

/** What the signature of a review token is made for (its key is derived for this use only). */
export const REVIEW_TOKEN_PURPOSE = 'review-link'

/** The statuses a review page shows (SCHEDULED only while its time is still ahead). */
export const REVIEWABLE_STATUSES: readonly PostStatus[] = ['IN_REVIEW', 'APPROVED', 'CHANGES_REQUESTED', 'SCHEDULED']

/** The status a visitor may approve or ask changes on. */
export const DECIDABLE_STATUS: PostStatus = 'IN_REVIEW'

/** A visitor's name: what the activity log and the post's approval show, with " (review link)". */
export const VISITOR_NAME_MAX = 80
/** A visitor's comment when asking for changes (the approvals service's limit). */
export const REVIEW_COMMENT_MAX = 2000

export type ReviewLinkState = 'active' | 'expired' | 'revoked'

/** A token's parts, read without checking the signature. */
export interface ReviewTokenParts {
  linkId: string
  expiresAt: Date
  /** The text the signature covers. */
  signed: string
  signature: string
}

const TOKEN_PATTERN = /^(rvl_[0-9A-Za-z]{22})\.([0-9]{9,11})\.([0-9A-Za-z]{26})\.([0-9A-Za-z_-]{43})$/

/** The signed part of a token. */
export const reviewTokenPayload = (linkId: string, expiresAt: Date, random: string): string =>
  `${linkId}.${Math.floor(expiresAt.getTime() / 1000)}.${random}`

/** A token's parts, or null when it is not shaped like one (never a database read for those). */
export function parseReviewToken(token: string): ReviewTokenParts | null {
  const m = TOKEN_PATTERN.exec(token)
  if (!m) return null
  const [, linkId, seconds, random, signature] = m as unknown as [string, string, string, string, string]
  return { linkId, expiresAt: new Date(Number(seconds) * 1000), signed: `${linkId}.${seconds}.${random}`, signature }
}

/** A link's expiry: `days` after `now`, to the second (the token carries whole seconds). */
export function reviewLinkExpiry(now: Date, days: number): Date {
  return new Date(Math.floor(now.getTime() / 1000) * 1000 + days * 86_400_000)
}

/** Whether a link may still be used. */
export function reviewLinkState(link: { expiresAt: Date; revokedAt: Date | null }, now: Date): ReviewLinkState {
  if (link.revokedAt) return 'revoked'
  return link.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active'
}

/** The actor's name for what a visitor does: their name, marked as coming through a review link. */
export const reviewVisitorActorName = (visitorName: string): string => `${visitorName} (review link)`

/** A visitor's name as given, trimmed; null with the reason when it cannot be used. */
export function checkVisitorName(raw: string): { name: string } | { problem: string } {
  const name = raw.trim().replace(/\s+/g, ' ')
  if (name === '') return { problem: 'Write your name: the team sees who approved or asked for changes.' }
  if ([...name].length > VISITOR_NAME_MAX)
    return { problem: `The name is ${[...name].length} characters; at most ${VISITOR_NAME_MAX}.` }
  return { name }
}
