/**
 * Review link tokens: made with the link (shown once, stored as SHA-256) and checked on every visit,
 * signature and expiry first, so a made-up, altered or expired token costs no database read.
 */
import type { CredentialCipher } from '../../infra/credential-cipher'
import { constantTimeEqual, sha256Hex } from '../../lib/crypto'
import { randomBase62 } from '../../lib/ids'
import {
  parseReviewToken,
  REVIEW_TOKEN_PURPOSE,
  REVIEW_TOKEN_RANDOM_LENGTH,
  reviewTokenPayload,
} from '../../domain/review-links'

/** A new token for the link, and the hash to store. */
export async function issueReviewToken(
  cipher: CredentialCipher,
  linkId: string,
  expiresAt: Date,
): Promise<{ token: string; tokenHash: string }> {
  const payload = reviewTokenPayload(linkId, expiresAt, randomBase62(REVIEW_TOKEN_RANDOM_LENGTH))
  const token = `${payload}.${await cipher.sign(REVIEW_TOKEN_PURPOSE, payload)}`
  return { token, tokenHash: await sha256Hex(token) }
}

/** What a token says before the database is asked: nothing usable, expired, or which link to look up. */
export type CheckedToken =
  | { state: 'invalid' }
  | { state: 'expired' }
  | { state: 'signed'; linkId: string; expiresAt: Date; tokenHash: string }

/** Reads and checks a token: its shape, its signature (constant-time), its expiry against `now`. */
export async function checkReviewToken(cipher: CredentialCipher, token: string, now: Date): Promise<CheckedToken> {
  const parts = parseReviewToken(token)
  if (!parts) return { state: 'invalid' }
  const expected = await cipher.sign(REVIEW_TOKEN_PURPOSE, parts.signed)
  if (!constantTimeEqual(expected, parts.signature)) return { state: 'invalid' }
  if (parts.expiresAt.getTime() <= now.getTime()) return { state: 'expired' }
  return { state: 'signed', linkId: parts.linkId, expiresAt: parts.expiresAt, tokenHash: await sha256Hex(token) }
}
