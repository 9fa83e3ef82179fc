/**
 * The photo network's inbox (Instagram Graph API, comment moderation guide): the account's media
 * (`/{ig-user-id}/media`, cursor paging, like and comment counts), each media's comments with their
 * replies (`/{ig-media-id}/comments`, `replies` nested), replies (`POST /{ig-comment-id}/replies`,
 * to the top-level comment: a reply to a reply joins the top-level thread), hiding
 * (`POST /{ig-comment-id}` with `hide`), deleting (`DELETE /{ig-comment-id}`), and the media the
 * account is tagged in (`/{ig-user-id}/tags`) as mentions. The network has no comment like.
 */
import { credential } from '../../http'
import type {
  CommentActionInput,
  CommentPage,
  HideCommentInput,
  ListCommentsInput,
  ListMentionsInput,
  ListPostsInput,
  NetworkComment,
  NetworkPostPage,
  ReplyInput,
  SentReply,
} from '../../inbox-adapter'
import { expectSuccess, graphInboxClient, graphPage, graphTime, numberOrNull } from '../meta/inbox'
import { PHOTO_GRAPH_VERSION, PHOTO_NETWORK } from './plan'
import { NO_FIGURES } from '../../metrics'

const N = PHOTO_NETWORK
/** Rows per page asked for (the network caps listing pages; 25 is its default). */
export const PHOTO_INBOX_PAGE = 50
const COMMENT_FIELDS = 'id,text,timestamp,username,from,hidden,parent_id'
const MEDIA_FIELDS = 'id,caption,media_type,media_url,permalink,timestamp,like_count,comments_count'

type Base = { fetch: typeof fetch; baseUrl: string; credentials: Record<string, unknown>; now: Date }
const client = (input: Base) =>
  graphInboxClient({
    network: N,
    fetch: input.fetch,
    baseUrl: input.baseUrl,
    version: PHOTO_GRAPH_VERSION,
    accessToken: credential(input.credentials, 'accessToken'),
    now: input.now,
  })
const paging = (cursor: string | null) => ({ limit: String(PHOTO_INBOX_PAGE), ...(cursor ? { after: cursor } : {}) })

/** The account's posts since `since`, newest first; paging stops at the first page reaching past it. */
export async function listPhotoPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const igUserId = credential(input.credentials, 'igUserId')
  const body = await client(input).get(`${igUserId}/media`, { fields: MEDIA_FIELDS, ...paging(input.cursor) })
  const page = graphPage(body)
  const all = page.data.map((m) => ({
    platformPostId: String(m.id),
    permalink: typeof m.permalink === 'string' ? m.permalink : null,
    text: typeof m.caption === 'string' ? m.caption : '',
    publishedAt: graphTime(m.timestamp, input.now),
    mediaUrls: typeof m.media_url === 'string' ? [m.media_url] : [],
    metrics: { ...NO_FIGURES, likes: numberOrNull(m.like_count), comments: numberOrNull(m.comments_count) },
  }))
  const posts = all.filter((p) => p.publishedAt >= input.since)
  return { posts, nextCursor: posts.length < all.length ? null : page.after }
}

function toComment(raw: any, input: Base & { postId: string | null }, parent: string | null): NetworkComment {
  const igUserId = credential(input.credentials, 'igUserId')
  const username = typeof raw.username === 'string' ? raw.username : (raw.from?.username ?? null)
  return {
    externalId: String(raw.id),
    parentExternalId: parent ?? (raw.parent_id ? String(raw.parent_id) : null),
    postExternalId: input.postId,
    author: {
      externalId: raw.from?.id ? String(raw.from.id) : null,
      name: username ?? '',
      handle: username,
      avatarUrl: null,
    },
    text: typeof raw.text === 'string' ? raw.text : '',
    createdAt: graphTime(raw.timestamp, input.now),
    permalink: null,
    fromAccount: raw.from?.id === igUserId || (username !== null && username === input.credentials.username),
    hidden: typeof raw.hidden === 'boolean' ? raw.hidden : null,
  }
}

/** A media's comments, each followed by its replies (one page of comments per call). */
export async function listPhotoComments(input: ListCommentsInput): Promise<CommentPage> {
  const graph = client(input)
  const postId = input.post.platformPostId
  const body = await graph.get(`${postId}/comments`, {
    fields: `${COMMENT_FIELDS},replies{${COMMENT_FIELDS}}`,
    ...paging(input.cursor),
  })
  const page = graphPage(body)
  const comments: NetworkComment[] = []
  for (const top of page.data) {
    const comment = toComment(top, { ...input, postId }, null)
    comments.push(comment)
    let replies = graphPage(top.replies)
    comments.push(...replies.data.map((r) => toComment(r, { ...input, postId }, comment.externalId)))
    while (replies.after) {
      const more = await graph.get(`${comment.externalId}/replies`, {
        fields: COMMENT_FIELDS,
        ...paging(replies.after),
      })
      replies = graphPage(more)
      comments.push(...replies.data.map((r) => toComment(r, { ...input, postId }, comment.externalId)))
    }
  }
  const olderThanSince = input.since !== null && comments.every((c) => c.createdAt <= input.since!)
  return { comments, nextCursor: olderThanSince ? null : page.after }
}

/** Media the account is tagged in, each as a mention of the account. */
export async function listPhotoMentions(input: ListMentionsInput): Promise<CommentPage> {
  const igUserId = credential(input.credentials, 'igUserId')
  const body = await client(input).get(`${igUserId}/tags`, {
    fields: 'id,caption,timestamp,username,permalink',
    ...paging(input.cursor),
  })
  const page = graphPage(body)
  const comments = page.data.map((m) => ({
    ...toComment({ ...m, text: m.caption }, { ...input, postId: String(m.id) }, null),
    permalink: typeof m.permalink === 'string' ? m.permalink : null,
    hidden: null,
  }))
  const olderThanSince = input.since !== null && comments.every((c) => c.createdAt <= input.since!)
  return { comments, nextCursor: olderThanSince ? null : page.after }
}

/** Replies go to the top-level comment (the network adds a reply to a reply to its top-level thread). */
export async function replyToPhotoComment(input: ReplyInput): Promise<SentReply> {
  const top = input.comment.parentExternalId ?? input.comment.externalId
  const body = await client(input).post(`${top}/replies`, { message: input.text })
  return { externalId: String(body.id), permalink: null }
}

export async function hidePhotoComment(input: HideCommentInput): Promise<void> {
  const body = await client(input).post(input.comment.externalId, { hide: String(input.hidden) })
  expectSuccess(body, N, input.hidden ? 'hide the comment' : 'show the comment')
}

export async function deletePhotoComment(input: CommentActionInput): Promise<void> {
  expectSuccess(await client(input).del(input.comment.externalId), N, 'delete the comment')
}
