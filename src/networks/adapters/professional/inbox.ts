/**
 * The professional network's inbox (Community Management API, versioned `/rest/*`): the author's
 * posts (`/rest/posts?q=author`, `start`/`count` paging), a post's comments and the replies under
 * each (`/rest/socialActions/{urn}/comments`, the same on a comment's URN), a reply (a comment on
 * the comment, with `parentComment`), deleting (`DELETE /rest/socialActions/{target}/comments/{id}`
 * with the acting `actor`) and liking (`POST /rest/reactions` with `root` and `LIKE`). Comments carry
 * their author's URN only (no name). No hide and no mention listing are documented.
 */
import { credential, joinUrl, request, type RequestOptions } from '../../http'
import {
  CommentGone,
  type CommentActionInput,
  type CommentPage,
  type ListCommentsInput,
  type ListPostsInput,
  type NetworkComment,
  type NetworkPostPage,
  type ReplyInput,
  type SentReply,
} from '../../inbox-adapter'
import { NETWORK, encodeUrn, failureFrom, headersOf, liveToken, permalinkOf, type Session } from './api'
import { NO_FIGURES } from '../../metrics'

/** Items per page asked for. */
export const PROFESSIONAL_INBOX_PAGE = 50

type Base = { fetch: typeof fetch; baseUrl: string; credentials: Record<string, unknown>; now: Date }
const sessionOf = (input: Base): Session => ({
  fetch: input.fetch,
  baseUrl: input.baseUrl,
  token: liveToken(input.credentials, input.now),
  now: input.now,
})

/** One call, every header set; 404 means the comment or post is gone, other failures as publishing's. */
async function inboxCall(input: Base, method: string, path: string, options: RequestOptions = {}) {
  const session = sessionOf(input)
  const answer = await request(session.fetch, NETWORK, joinUrl(session.baseUrl, path), {
    ...options,
    method,
    headers: headersOf(session.token),
  })
  if (answer.status >= 200 && answer.status < 300) return answer
  if (answer.status === 404) throw new CommentGone(`${NETWORK}: the comment or its post no longer exists.`)
  throw failureFrom(answer, input.now)
}

const offset = (cursor: string | null) => (cursor && /^\d+$/.test(cursor) ? Number(cursor) : 0)
const nextOffset = (start: number, got: number, total: unknown) =>
  got === 0
    ? null
    : typeof total === 'number'
      ? start + got < total
        ? String(start + got)
        : null
      : got < PROFESSIONAL_INBOX_PAGE
        ? null
        : String(start + got)

export async function listAuthorPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const author = credential(input.credentials, 'authorUrn')
  const start = offset(input.cursor)
  const answer = await inboxCall(
    input,
    'GET',
    `/rest/posts?author=${encodeURIComponent(author)}&q=author&sortBy=CREATED&start=${start}&count=${PROFESSIONAL_INBOX_PAGE}`,
  )
  const elements: any[] = answer.body?.elements ?? []
  const all = elements
    .filter((p) => typeof p.id === 'string')
    .map((p) => ({
      platformPostId: String(p.id),
      permalink: permalinkOf(String(p.id)),
      text: typeof p.commentary === 'string' ? p.commentary : '',
      publishedAt: new Date(Number(p.publishedAt ?? p.createdAt ?? input.now.getTime())),
      mediaUrls: [],
      metrics: { ...NO_FIGURES },
    }))
  const posts = all.filter((p) => p.publishedAt >= input.since)
  return {
    posts,
    nextCursor: posts.length < all.length ? null : nextOffset(start, elements.length, answer.body?.paging?.total),
  }
}

function toComment(raw: any, postUrn: string, parent: string | null, author: string, now: Date): NetworkComment {
  const actor = typeof raw.actor === 'string' ? raw.actor : null
  const urn = typeof raw.commentUrn === 'string' ? raw.commentUrn : String(raw.id)
  return {
    externalId: urn,
    parentExternalId: parent,
    postExternalId: postUrn,
    author: { externalId: actor, name: actor ?? '', handle: null, avatarUrl: null },
    text: typeof raw.message?.text === 'string' ? raw.message.text : '',
    createdAt: new Date(Number(raw.created?.time ?? now.getTime())),
    permalink: `${permalinkOf(postUrn)}?commentUrn=${encodeURIComponent(urn)}`,
    fromAccount: actor !== null && actor === author,
    hidden: null,
  }
}

async function commentsOn(input: Base, target: string, start: number) {
  const answer = await inboxCall(
    input,
    'GET',
    `/rest/socialActions/${encodeUrn(target)}/comments?start=${start}&count=${PROFESSIONAL_INBOX_PAGE}`,
  )
  const elements: any[] = answer.body?.elements ?? []
  return { elements, next: nextOffset(start, elements.length, answer.body?.paging?.total) }
}

/** One page of a post's comments, each followed by every reply under it. */
export async function listPostComments(input: ListCommentsInput): Promise<CommentPage> {
  const author = credential(input.credentials, 'authorUrn')
  const postUrn = input.post.platformPostId
  const page = await commentsOn(input, postUrn, offset(input.cursor))
  const comments: NetworkComment[] = []
  for (const raw of page.elements) {
    const top = toComment(raw, postUrn, null, author, input.now)
    comments.push(top)
    if (
      !(Number(raw.commentsSummary?.aggregatedTotalComments ?? raw.commentsSummary?.totalFirstLevelComments ?? 0) > 0)
    )
      continue
    let next: string | null = '0'
    while (next !== null) {
      const replies = await commentsOn(input, top.externalId, Number(next))
      comments.push(...replies.elements.map((r) => toComment(r, postUrn, top.externalId, author, input.now)))
      next = replies.next
    }
  }
  return { comments, nextCursor: page.next }
}

export async function replyToPostComment(input: ReplyInput): Promise<SentReply> {
  const author = credential(input.credentials, 'authorUrn')
  const parent = input.comment.parentExternalId ?? input.comment.externalId
  const answer = await inboxCall(input, 'POST', `/rest/socialActions/${encodeUrn(parent)}/comments`, {
    json: { actor: author, object: input.comment.postExternalId, parentComment: parent, message: { text: input.text } },
  })
  const urn = typeof answer.body?.commentUrn === 'string' ? answer.body.commentUrn : answer.headers.get('x-restli-id')
  const id = String(urn ?? '')
  return {
    externalId: id,
    permalink: input.comment.postExternalId
      ? `${permalinkOf(input.comment.postExternalId)}?commentUrn=${encodeURIComponent(id)}`
      : null,
  }
}

/** `urn:li:comment:(urn:li:activity:1,2)` -> its id `2`. */
const commentIdOf = (urn: string) => /,([^,)]+)\)$/.exec(urn)?.[1] ?? urn

export async function deletePostComment(input: CommentActionInput): Promise<void> {
  const author = credential(input.credentials, 'authorUrn')
  const target = input.comment.parentExternalId ?? input.comment.postExternalId ?? ''
  await inboxCall(
    input,
    'DELETE',
    `/rest/socialActions/${encodeUrn(target)}/comments/${encodeURIComponent(commentIdOf(input.comment.externalId))}?actor=${encodeUrn(author)}`,
  )
}

export async function likePostComment(input: CommentActionInput): Promise<void> {
  const author = credential(input.credentials, 'authorUrn')
  await inboxCall(input, 'POST', `/rest/reactions?actor=${encodeUrn(author)}`, {
    json: { root: input.comment.externalId, reactionType: 'LIKE' },
  })
}
