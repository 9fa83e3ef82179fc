/**
 * The page network's inbox (Graph API, Page reference): the Page's own posts
 * (`/{page-id}/published_posts`, cursor paging, reaction/comment/share counts), a post's comments
 * and replies flattened (`/{post-id}/comments?filter=stream`, each reply naming its `parent`),
 * replies (`POST /{comment-id}/comments`), hiding (`POST /{comment-id}` with `is_hidden`),
 * deleting (`DELETE /{comment-id}`), liking as the Page (`POST /{comment-id}/likes`), and posts the
 * Page is tagged in (`/{page-id}/tagged`) as mentions. A deleted object answers code 100/33.
 */
import { credential } from '../../http'
import {
  CommentGone,
  type CommentActionInput,
  type CommentPage,
  type HideCommentInput,
  type ListCommentsInput,
  type ListMentionsInput,
  type ListPostsInput,
  type NetworkComment,
  type NetworkPostPage,
  type ReplyInput,
  type SentReply,
} from '../../inbox-adapter'
import { graphPage, graphTime, numberOrNull } from '../meta/inbox'
import { NETWORK, WEB_ORIGIN, graphClient, isMissingObject, type GraphContext } from './api'
import { NO_FIGURES } from '../../metrics'

/** Rows per page asked for. */
export const PAGE_INBOX_PAGE = 50
const COMMENT_FIELDS = 'id,message,created_time,from{id,name,picture},parent{id},is_hidden,permalink_url'
const POST_FIELDS =
  'id,message,created_time,permalink_url,full_picture,shares,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)'

const paging = (cursor: string | null) => ({ limit: String(PAGE_INBOX_PAGE), ...(cursor ? { after: cursor } : {}) })

/** A call whose "does not exist" answer means the comment or post is gone. */
async function call(
  ctx: GraphContext,
  method: string,
  path: string,
  options: { query?: Record<string, string>; json?: unknown } = {},
) {
  try {
    return await graphClient(ctx)(method, path, options)
  } catch (err) {
    if (isMissingObject(err)) throw new CommentGone(`${NETWORK}: the comment or its post no longer exists.`)
    throw err
  }
}

const link = (raw: unknown): string | null =>
  typeof raw !== 'string' || !raw ? null : raw.startsWith('/') ? `${WEB_ORIGIN}${raw}` : raw

export async function listPagePosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const pageId = credential(input.credentials, 'pageId')
  const since = String(Math.floor(input.since.getTime() / 1000))
  const body = await call(input, 'GET', `${pageId}/published_posts`, {
    query: { fields: POST_FIELDS, since, ...paging(input.cursor) },
  })
  const page = graphPage(body)
  const posts = page.data.map((p) => ({
    platformPostId: String(p.id),
    permalink: link(p.permalink_url),
    text: typeof p.message === 'string' ? p.message : '',
    publishedAt: graphTime(p.created_time, input.now),
    mediaUrls: typeof p.full_picture === 'string' ? [p.full_picture] : [],
    metrics: {
      ...NO_FIGURES,
      likes: numberOrNull(p.reactions?.summary?.total_count),
      comments: numberOrNull(p.comments?.summary?.total_count),
      // The network leaves `shares` out of a post nobody shared.
      shares: numberOrNull(p.shares?.count ?? 0),
    },
  }))
  return { posts, nextCursor: page.after }
}

function toComment(raw: any, pageId: string, postId: string | null, now: Date): NetworkComment {
  const name = typeof raw.from?.name === 'string' ? raw.from.name : ''
  return {
    externalId: String(raw.id),
    parentExternalId: raw.parent?.id ? String(raw.parent.id) : null,
    postExternalId: postId,
    author: {
      externalId: raw.from?.id ? String(raw.from.id) : null,
      name,
      handle: null,
      avatarUrl: typeof raw.from?.picture?.data?.url === 'string' ? raw.from.picture.data.url : null,
    },
    text: typeof raw.message === 'string' ? raw.message : '',
    createdAt: graphTime(raw.created_time, now),
    permalink: link(raw.permalink_url),
    fromAccount: raw.from?.id === pageId,
    hidden: typeof raw.is_hidden === 'boolean' ? raw.is_hidden : null,
  }
}

/** Comments and replies, newest first; paging stops once a page is all older than `since`. */
export async function listPageComments(input: ListCommentsInput): Promise<CommentPage> {
  const pageId = credential(input.credentials, 'pageId')
  const postId = input.post.platformPostId
  const body = await call(input, 'GET', `${postId}/comments`, {
    query: { fields: COMMENT_FIELDS, filter: 'stream', order: 'reverse_chronological', ...paging(input.cursor) },
  })
  const page = graphPage(body)
  const comments = page.data.map((c) => toComment(c, pageId, postId, input.now))
  const reachedKnown = input.since !== null && comments.some((c) => c.createdAt <= input.since!)
  return { comments, nextCursor: reachedKnown ? null : page.after }
}

/** Posts that tag the Page, each as a mention. */
export async function listPageMentions(input: ListMentionsInput): Promise<CommentPage> {
  const pageId = credential(input.credentials, 'pageId')
  const body = await call(input, 'GET', `${pageId}/tagged`, {
    query: { fields: 'id,message,created_time,from{id,name,picture},permalink_url', ...paging(input.cursor) },
  })
  const page = graphPage(body)
  const comments = page.data.map((p) => ({ ...toComment(p, pageId, String(p.id), input.now), hidden: null }))
  const reachedKnown = input.since !== null && comments.some((c) => c.createdAt <= input.since!)
  return { comments, nextCursor: reachedKnown ? null : page.after }
}

/** A reply joins the top-level comment's thread (the network nests one level). */
export async function replyToPageComment(input: ReplyInput): Promise<SentReply> {
  const top = input.comment.parentExternalId ?? input.comment.externalId
  const body = await call(input, 'POST', `${top}/comments`, { json: { message: input.text } })
  const id = String(body.id)
  return { externalId: id, permalink: null }
}

export async function hidePageComment(input: HideCommentInput): Promise<void> {
  await call(input, 'POST', input.comment.externalId, { json: { is_hidden: input.hidden } })
}

export async function deletePageComment(input: CommentActionInput): Promise<void> {
  await call(input, 'DELETE', input.comment.externalId)
}

export async function likePageComment(input: CommentActionInput): Promise<void> {
  await call(input, 'POST', `${input.comment.externalId}/likes`)
}
