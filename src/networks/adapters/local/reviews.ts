/**
 * The reviews of the account's location, read and answered through the My Business API v4: a page
 * of reviews (newest change first, 50 at most a page) with the location's average rating and
 * count, and the owner's reply to one review (created, or replaced when there is one). Not on a
 * route yet: the inbox reads them through these functions. Both work only for a verified location.
 * https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/list,
 * https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/updateReply
 */
import type { BoardsInput } from '../../adapter'
import { NetworkFailure } from '../../http'
import { NETWORK, localClient, locationNameOf, v4 } from './api'

export const REVIEWS_PAGE_SIZE = 50
/** The reply body, in UTF-8 bytes. */
export const REPLY_MAX_BYTES = 4096
/** The orders the network sorts reviews in. */
export const REVIEW_ORDERS = ['updateTime desc', 'rating', 'rating desc'] as const
export type ReviewOrder = (typeof REVIEW_ORDERS)[number]

/** `StarRating` enum -> stars. */
const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 }

export interface Review {
  /** The review's resource name, what `replyToReview` takes. */
  name: string
  reviewId: string
  /** The reviewer's display name; null when they stay anonymous. */
  reviewer: string | null
  /** 1 to 5; null when the network does not say. */
  stars: number | null
  comment: string | null
  createdAt: string | null
  updatedAt: string | null
  reply: { comment: string; updatedAt: string | null } | null
}

export interface ReviewPage {
  reviews: Review[]
  averageRating: number | null
  totalReviewCount: number | null
  /** Passed back as `pageToken` for the next page; null on the last one. */
  nextPageToken: string | null
}

export interface ReviewsInput extends Omit<BoardsInput, 'accountId'> {
  pageToken?: string | null
  orderBy?: ReviewOrder
}

export interface ReplyInput extends Omit<BoardsInput, 'accountId'> {
  /** `accounts/{a}/locations/{l}/reviews/{r}`, of the account's own location. */
  reviewName: string
  comment: string
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

function asReview(raw: any): Review {
  const anonymous = raw?.reviewer?.isAnonymous === true
  return {
    name: String(raw?.name ?? ''),
    reviewId: String(raw?.reviewId ?? ''),
    reviewer: anonymous ? null : text(raw?.reviewer?.displayName),
    stars: STARS[String(raw?.starRating)] ?? null,
    comment: text(raw?.comment),
    createdAt: text(raw?.createTime),
    updatedAt: text(raw?.updateTime),
    reply: text(raw?.reviewReply?.comment)
      ? { comment: raw.reviewReply.comment, updatedAt: text(raw.reviewReply.updateTime) }
      : null,
  }
}

/** One page of the location's reviews. */
export async function listReviews(input: ReviewsInput): Promise<ReviewPage> {
  const location = locationNameOf(input.credentials)
  const body = await localClient(input)('GET', v4(input.baseUrl, `${location}/reviews`), {
    query: {
      pageSize: String(REVIEWS_PAGE_SIZE),
      orderBy: input.orderBy ?? 'updateTime desc',
      ...(input.pageToken ? { pageToken: input.pageToken } : {}),
    },
  })
  return {
    reviews: (Array.isArray(body.reviews) ? body.reviews : []).map(asReview),
    averageRating: typeof body.averageRating === 'number' ? body.averageRating : null,
    totalReviewCount: typeof body.totalReviewCount === 'number' ? body.totalReviewCount : null,
    nextPageToken: text(body.nextPageToken),
  }
}

/** Answers a review of the account's location (replacing an earlier answer); the reply as the network keeps it. */
export async function replyToReview(input: ReplyInput): Promise<{ comment: string; updatedAt: string | null }> {
  const location = locationNameOf(input.credentials)
  if (!new RegExp(`^${location}/reviews/[\\w-]+$`).test(input.reviewName))
    throw new NetworkFailure('rejected', `${NETWORK}: ${input.reviewName} is not a review of ${location}.`)
  const comment = input.comment.trim()
  if (comment === '') throw new NetworkFailure('rejected', `${NETWORK}: a reply needs some text.`)
  const bytes = new TextEncoder().encode(comment).byteLength
  if (bytes > REPLY_MAX_BYTES)
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: a reply takes at most ${REPLY_MAX_BYTES} bytes (this one has ${bytes}).`,
    )
  const body = await localClient(input)('PUT', v4(input.baseUrl, `${input.reviewName}/reply`), { json: { comment } })
  return { comment: text(body.comment) ?? comment, updatedAt: text(body.updateTime) }
}
