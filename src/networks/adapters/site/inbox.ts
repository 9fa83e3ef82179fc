/**
 * SITE_NET's inbox (WordPress REST API wp/v2, Posts and Comments references). Posts: the signed-in
 * author's published posts (`GET posts?author=&after=`, newest first, `page`/`per_page` with
 * `X-WP-TotalPages`). Comments: `GET comments?post=` oldest first with `context=edit` and
 * `status=all`, so held comments show as hidden; `parent` makes the threads. A reply is
 * `POST comments` with `post` and `parent`; hide sets `status: hold`, unhide `status: approved`;
 * delete moves to the trash. The API has no likes and no mentions listing.
 */
import type {
  CommentActionInput,
  CommentPage,
  HideCommentInput,
  ListCommentsInput,
  ListPostsInput,
  NetworkComment,
  NetworkPostPage,
  ReplyInput,
  SentReply,
} from '../../adapter'
import { createdId, NetworkFailure } from '../../http'
import { plainText } from '../../html-text'
import { CommentGone } from '../../inbox-adapter'
import { errorCode, failureFrom, NETWORK, sessionOf, wp, wpAnswer, type Session } from './api'
import { NO_FIGURES } from '../../metrics'

/** Items per page (the reference allows at most 100). */
export const PAGE_SIZE = 100
/** The site's answers for a comment or post that no longer exists (or is in the trash). */
const GONE_CODES = new Set([
  'rest_comment_invalid_id',
  'rest_post_invalid_id',
  'rest_already_trashed',
  'rest_comment_invalid_post_id',
  'rest_comment_invalid_parent',
])

type Item = Record<string, any>

/** A wp/v2 call whose "no such comment or post" answer is `CommentGone`. */
async function act(session: Session, route: string, options: Parameters<typeof wp>[2], what: string) {
  const answer = await wpAnswer(session, route, options)
  if (answer.status >= 200 && answer.status < 300) return answer
  const code = errorCode(answer)
  if (code && GONE_CODES.has(code)) throw new CommentGone(`${NETWORK}: ${what} no longer exists (${code}).`)
  throw failureFrom(session, answer)
}

const nextPage = (cursor: string | null, headers: Headers): string | null => {
  const page = Number(cursor ?? 1)
  const pages = Number(headers.get('x-wp-totalpages') ?? 1)
  return page < pages ? String(page + 1) : null
}

async function authorId(session: Session, credentials: Record<string, unknown>): Promise<string> {
  if (typeof credentials.userId === 'string' || typeof credentials.userId === 'number')
    return String(credentials.userId)
  const me = (await wp(session, 'users/me')).body ?? {}
  if (me.id === undefined || me.id === null) throw new NetworkFailure('rejected', `${NETWORK}: the site names no user.`)
  return String(me.id)
}

export async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const session = sessionOf(input)
  const query = new URLSearchParams({
    author: await authorId(session, input.credentials),
    after: input.since.toISOString(),
    orderby: 'date',
    order: 'desc',
    per_page: String(PAGE_SIZE),
    page: input.cursor ?? '1',
  })
  const answer = await wp(session, `posts?${query}`)
  const posts = ((Array.isArray(answer.body) ? answer.body : []) as Item[]).map((p) => ({
    platformPostId: String(p.id),
    permalink: typeof p.link === 'string' ? p.link : null,
    text: plainText(String(p.content?.rendered ?? '')) || plainText(String(p.title?.rendered ?? '')),
    publishedAt: new Date(`${String(p.date_gmt ?? p.date)}${p.date_gmt ? 'Z' : ''}`),
    mediaUrls: [],
    metrics: { ...NO_FIGURES },
  }))
  return { posts, nextCursor: nextPage(input.cursor, answer.headers) }
}

function commentOf(c: Item, postId: string, me: string): NetworkComment {
  const avatars = (c.author_avatar_urls ?? {}) as Record<string, string>
  return {
    externalId: String(c.id),
    parentExternalId: c.parent ? String(c.parent) : null,
    postExternalId: postId,
    author: {
      externalId: c.author ? String(c.author) : null,
      name: typeof c.author_name === 'string' && c.author_name ? c.author_name : 'Anonymous',
      handle: null,
      avatarUrl: avatars['96'] ?? avatars['48'] ?? null,
    },
    text: typeof c.content?.raw === 'string' ? c.content.raw : plainText(String(c.content?.rendered ?? '')),
    createdAt: new Date(`${String(c.date_gmt ?? c.date)}Z`),
    permalink: typeof c.link === 'string' ? c.link : null,
    fromAccount: String(c.author) === me,
    hidden: c.status === 'hold',
  }
}

export async function listComments(input: ListCommentsInput): Promise<CommentPage> {
  const session = sessionOf(input)
  const postId = input.post.platformPostId
  const query = new URLSearchParams({
    post: postId,
    context: 'edit',
    status: 'all',
    orderby: 'date_gmt',
    order: 'asc',
    per_page: String(PAGE_SIZE),
    page: input.cursor ?? '1',
    ...(input.since ? { after: input.since.toISOString() } : {}),
  })
  const answer = await act(session, `comments?${query}`, {}, 'the post')
  const me = await authorId(session, input.credentials)
  const comments = ((Array.isArray(answer.body) ? answer.body : []) as Item[]).map((c) => commentOf(c, postId, me))
  return { comments, nextCursor: nextPage(input.cursor, answer.headers) }
}

export async function replyToComment(input: ReplyInput): Promise<SentReply> {
  const session = sessionOf(input)
  const post = input.comment.postExternalId
  if (!post) throw new NetworkFailure('rejected', `${NETWORK}: a reply needs the post the comment is on.`)
  const answer = await act(
    session,
    'comments',
    { method: 'POST', json: { post: Number(post), parent: Number(input.comment.externalId), content: input.text } },
    'the comment',
  )
  const id = createdId(answer.body?.id, NETWORK, answer.body, 'comment')
  return { externalId: id, permalink: typeof answer.body?.link === 'string' ? answer.body.link : null }
}

export async function hideComment(input: HideCommentInput): Promise<void> {
  const route = `comments/${encodeURIComponent(input.comment.externalId)}`
  await act(
    sessionOf(input),
    route,
    { method: 'POST', json: { status: input.hidden ? 'hold' : 'approved' } },
    'the comment',
  )
}

export async function deleteComment(input: CommentActionInput): Promise<void> {
  await act(
    sessionOf(input),
    `comments/${encodeURIComponent(input.comment.externalId)}`,
    { method: 'DELETE' },
    'the comment',
  )
}
