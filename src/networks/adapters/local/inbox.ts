/**
 * The local business network's inbox (Business Profile APIs, My Business v4): the location's
 * local posts (`localPosts.list`, `pageToken` paging, LIVE ones only) imported as posts, and its
 * reviews (`reviews.list`, newest change first). Reviews are about the location, not a post, so
 * they are read as the account's mentions (no post); the owner's answer, when there is one, is a
 * reply under its review written by the account. Answering a review (`reviews.updateReply`)
 * replaces an earlier answer. Reviews cannot be hidden, deleted or liked; local posts take no
 * comments. A review that no longer exists answers 404.
 */
import { NetworkFailure, credential, request } from '../../http'
import {
  CommentGone,
  type CommentPage,
  type ListMentionsInput,
  type ListPostsInput,
  type NetworkComment,
  type NetworkPostPage,
  type ReplyInput,
  type SentReply,
} from '../../inbox-adapter'
import { NETWORK, localFailure, locationNameOf, v4 } from './api'
import { REPLY_MAX_BYTES, REVIEWS_PAGE_SIZE } from './reviews'
import { NO_FIGURES } from '../../metrics'

/** `StarRating` -> stars, shown before the review's words. */
const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 }
/** Local posts per page (the network's most). */
export const LOCAL_POSTS_PAGE = 100

type Base = { fetch: typeof fetch; baseUrl: string; credentials: Record<string, unknown>; now: Date }

async function get(input: Base, path: string, query: Record<string, string>) {
  const answer = await request(input.fetch, NETWORK, `${v4(input.baseUrl, path)}?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${credential(input.credentials, 'accessToken')}` },
  })
  if (answer.status >= 200 && answer.status < 300) return answer.body ?? {}
  throw localFailure(answer, input.now)
}

const date = (raw: unknown, fallback: Date) => {
  const d = typeof raw === 'string' ? new Date(raw) : fallback
  return Number.isNaN(d.getTime()) ? fallback : d
}
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

export async function listLocalPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const location = locationNameOf(input.credentials)
  const body = await get(input, `${location}/localPosts`, {
    pageSize: String(LOCAL_POSTS_PAGE),
    ...(input.cursor ? { pageToken: input.cursor } : {}),
  })
  const all = (Array.isArray(body.localPosts) ? body.localPosts : [])
    .filter((p: any) => p.state === 'LIVE' && typeof p.name === 'string')
    .map((p: any) => ({
      platformPostId: String(p.name),
      permalink: str(p.searchUrl),
      text: str(p.summary) ?? '',
      publishedAt: date(p.createTime, input.now),
      mediaUrls: (Array.isArray(p.media) ? p.media : []).map((m: any) => str(m.googleUrl)).filter(Boolean),
      metrics: { ...NO_FIGURES },
    }))
  const posts = all.filter((p: { publishedAt: Date }) => p.publishedAt >= input.since)
  return { posts, nextCursor: posts.length < all.length ? null : str(body.nextPageToken) }
}

function reviewToComments(raw: any, now: Date): NetworkComment[] {
  const name = String(raw.name)
  const anonymous = raw.reviewer?.isAnonymous === true
  const reviewer = anonymous ? null : str(raw.reviewer?.displayName)
  const stars = STARS[String(raw.starRating)]
  const review: NetworkComment = {
    externalId: name,
    parentExternalId: null,
    postExternalId: null,
    author: {
      externalId: null,
      name: reviewer ?? 'A Google user',
      handle: null,
      avatarUrl: str(raw.reviewer?.profilePhotoUrl),
    },
    text: [stars ? `(${stars}/5)` : null, str(raw.comment)].filter(Boolean).join(' '),
    createdAt: date(raw.createTime, now),
    permalink: null,
    fromAccount: false,
    hidden: null,
  }
  const answer = str(raw.reviewReply?.comment)
  if (!answer) return [review]
  return [
    review,
    {
      ...review,
      externalId: `${name}/reply`,
      parentExternalId: name,
      author: { externalId: null, name: 'Owner', handle: null, avatarUrl: null },
      text: answer,
      createdAt: date(raw.reviewReply.updateTime, now),
      fromAccount: true,
    },
  ]
}

/** The location's reviews (each with the owner's answer under it), newest change first. */
export async function listLocalReviews(input: ListMentionsInput): Promise<CommentPage> {
  const location = locationNameOf(input.credentials)
  const body = await get(input, `${location}/reviews`, {
    pageSize: String(REVIEWS_PAGE_SIZE),
    orderBy: 'updateTime desc',
    ...(input.cursor ? { pageToken: input.cursor } : {}),
  })
  const raws: any[] = Array.isArray(body.reviews) ? body.reviews : []
  const comments = raws.flatMap((r) => reviewToComments(r, input.now))
  const reachedKnown =
    input.since !== null && raws.some((r) => date(r.updateTime ?? r.createTime, input.now) <= input.since!)
  return { comments, nextCursor: reachedKnown ? null : str(body.nextPageToken) }
}

/** The owner's answer to a review (replacing any earlier one); its id is the review's `/reply`. */
export async function answerLocalReview(input: ReplyInput): Promise<SentReply> {
  const review = input.comment.parentExternalId ?? input.comment.externalId
  const location = locationNameOf(input.credentials)
  if (!review.startsWith(`${location}/reviews/`))
    throw new NetworkFailure('rejected', `${NETWORK}: ${review} is not a review of ${location}.`)
  const bytes = new TextEncoder().encode(input.text).byteLength
  if (bytes > REPLY_MAX_BYTES)
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: an answer takes at most ${REPLY_MAX_BYTES} bytes (this one has ${bytes}).`,
    )
  const answer = await request(input.fetch, NETWORK, v4(input.baseUrl, `${review}/reply`), {
    method: 'PUT',
    headers: { authorization: `Bearer ${credential(input.credentials, 'accessToken')}` },
    json: { comment: input.text },
  })
  if (answer.status === 404) throw new CommentGone(`${NETWORK}: the review no longer exists.`)
  if (answer.status >= 300) throw localFailure(answer, input.now)
  return { externalId: `${review}/reply`, permalink: null }
}
