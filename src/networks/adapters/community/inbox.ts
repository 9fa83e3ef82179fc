/**
 * The community network's (Lemmy 0.19, API v3) side of the inbox: the account's posts
 * (GET /api/v3/user, newest first, paged by `page`), a post's comments with their replies
 * (GET /api/v3/comment/list by `post_id`, newest first, paged by `page`; a comment's `path`
 * "0.<ancestors>.<id>" names its parent), mentions (GET /api/v3/user/mention), a reply
 * (POST /api/v3/comment with `parent_id`), an upvote (POST /api/v3/comment/like, score 1) and
 * deleting the account's own comment (POST /api/v3/comment/delete). Removing someone else's comment
 * is a moderator's power, not the inbox's. Missing posts and comments answer `couldnt_find_post`,
 * `couldnt_find_comment`.
 */
import type {
  AccountCallInput,
  CommentActionInput,
  CommentPage,
  ListCommentsInput,
  ListMentionsInput,
  ListPostsInput,
  NetworkComment,
  NetworkPostPage,
  ReplyInput,
  SentReply,
} from '../../inbox-adapter'
import { CommentGone } from '../../inbox-adapter'
import { createdId, joinUrl } from '../../http'
import { metric, NO_FIGURES } from '../../metrics'
import { type Call, isCode, lemmy, NETWORK } from './api'
import { sessionOf } from './session'

/** Items per page (the server's maximum). */
const PAGE = 50
const GONE = ['couldnt_find_post', 'couldnt_find_comment', 'couldnt_find_object']

/** The server's time stamps are UTC; one without a zone is read as UTC. */
const timeOf = (value: unknown): Date =>
  new Date(typeof value === 'string' ? (/(Z|[+-]\d\d:?\d\d)$/.test(value) ? value : `${value}Z`) : NaN)

async function call(input: AccountCallInput, path: string, options: Call = {}): Promise<any> {
  const ctx = { fetch: input.fetch, baseUrl: input.baseUrl, now: input.now, jwt: sessionOf(input.credentials).jwt }
  try {
    return await lemmy(ctx, path, options)
  } catch (err) {
    if (isCode(err, ...GONE)) throw new CommentGone(`${NETWORK}: the post or comment no longer exists.`)
    throw err
  }
}

const pageOf = (cursor: string | null) => Math.max(1, Number(cursor) || 1)
const linkOf = (input: AccountCallInput, item: any, kind: 'post' | 'comment') =>
  typeof item?.ap_id === 'string' && /^https?:\/\//.test(item.ap_id)
    ? item.ap_id
    : joinUrl(input.baseUrl, `${kind}/${item?.id}`)

export async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const { username, personId } = sessionOf(input.credentials)
  const page = pageOf(input.cursor)
  const answer = await call(input, 'user', { query: { username, sort: 'New', limit: PAGE, page } })
  const views: any[] = Array.isArray(answer?.posts) ? answer.posts : []
  const own = views.filter((v) => v?.post && v.post.creator_id === personId && !v.post.deleted && !v.post.removed)
  const fresh = own.filter((v) => timeOf(v.post.published).getTime() >= input.since.getTime())
  const posts = fresh.map((v) => ({
    platformPostId: String(v.post.id),
    permalink: linkOf(input, v.post, 'post'),
    text: [v.post.name, v.post.body].filter((s) => typeof s === 'string' && s).join('\n\n'),
    publishedAt: timeOf(v.post.published),
    mediaUrls: [v.post.thumbnail_url ?? (/\.(jpe?g|png|gif|webp)$/i.test(v.post.url ?? '') ? v.post.url : null)].filter(
      (u): u is string => typeof u === 'string',
    ),
    metrics: {
      ...NO_FIGURES,
      // The score may go below zero; a negative score is no count of likes.
      likes: metric(v.counts?.score),
      comments: metric(v.counts?.comments),
    },
  }))
  const more = views.length === PAGE && fresh.length === own.length
  return { posts, nextCursor: more ? String(page + 1) : null }
}

/** A comment view (or a mention view, which has the same parts) as an inbox comment. */
function commentOf(input: AccountCallInput, view: any, personId: number): NetworkComment {
  const c = view.comment
  const path = String(c.path ?? '').split('.')
  const parent = path.length > 2 ? path[path.length - 2]! : null
  const creator = view.creator ?? {}
  let host = ''
  try {
    host = new URL(String(creator.actor_id)).host
  } catch {
    // A person without a readable actor id is named without a host.
  }
  return {
    externalId: String(c.id),
    parentExternalId: parent,
    postExternalId: c.post_id !== undefined ? String(c.post_id) : null,
    author: {
      externalId: creator.id !== undefined ? String(creator.id) : null,
      name: String(creator.display_name || creator.name || 'unknown'),
      handle: creator.name ? (host ? `${creator.name}@${host}` : String(creator.name)) : null,
      avatarUrl: typeof creator.avatar === 'string' ? creator.avatar : null,
    },
    text: String(c.content ?? ''),
    createdAt: timeOf(c.published),
    permalink: linkOf(input, c, 'comment'),
    fromAccount: c.creator_id === personId,
    hidden: null,
  }
}

const visible = (view: any) => view?.comment && !view.comment.deleted && !view.comment.removed

export async function listComments(input: ListCommentsInput): Promise<CommentPage> {
  const { personId } = sessionOf(input.credentials)
  const page = pageOf(input.cursor)
  const answer = await call(input, 'comment/list', {
    query: { post_id: input.post.platformPostId, sort: 'New', type_: 'All', limit: PAGE, page },
  })
  const views: any[] = Array.isArray(answer?.comments) ? answer.comments : []
  const since = input.since?.getTime() ?? -Infinity
  const fresh = views.filter((v) => v?.comment && timeOf(v.comment.published).getTime() > since)
  const comments = fresh.filter(visible).map((v) => commentOf(input, v, personId))
  const more = views.length === PAGE && fresh.length === views.length
  return { comments, nextCursor: more ? String(page + 1) : null }
}

export async function listMentions(input: ListMentionsInput): Promise<CommentPage> {
  const { personId } = sessionOf(input.credentials)
  const page = pageOf(input.cursor)
  const answer = await call(input, 'user/mention', { query: { sort: 'New', unread_only: 'false', limit: PAGE, page } })
  const views: any[] = Array.isArray(answer?.mentions) ? answer.mentions : []
  const since = input.since?.getTime() ?? -Infinity
  const fresh = views.filter((v) => v?.comment && timeOf(v.comment.published).getTime() > since)
  const comments = fresh.filter(visible).map((v) => commentOf(input, v, personId))
  const more = views.length === PAGE && fresh.length === views.length
  return { comments, nextCursor: more ? String(page + 1) : null }
}

export async function replyToComment(input: ReplyInput): Promise<SentReply> {
  const body = await call(input, 'comment', {
    method: 'POST',
    json: {
      content: input.text,
      post_id: Number(input.comment.postExternalId),
      parent_id: Number(input.comment.externalId),
    },
  })
  const comment = body?.comment_view?.comment
  const id = createdId(comment?.id, NETWORK, body, 'comment')
  return { externalId: id, permalink: linkOf(input, comment, 'comment') }
}

export async function likeComment(input: CommentActionInput): Promise<void> {
  await call(input, 'comment/like', {
    method: 'POST',
    json: { comment_id: Number(input.comment.externalId), score: 1 },
  })
}

export async function deleteComment(input: CommentActionInput): Promise<void> {
  await call(input, 'comment/delete', {
    method: 'POST',
    json: { comment_id: Number(input.comment.externalId), deleted: true },
  })
}
