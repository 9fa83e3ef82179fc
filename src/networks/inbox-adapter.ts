/**
 * What an adapter reads and does for the inbox and for imported posts (docs/inbox.md): the
 * account's own posts, the comments on one post, the posts that mention the account, and the
 * actions on a comment. Every method is optional on `NetworkAdapter`; an adapter implements what
 * its network documents, and the rules registry (`insights.importsPosts`, `inbox`) says the same.
 * Failures are `NetworkFailure`s (networks/http.ts); a comment or post the network no longer has
 * is a `CommentGone`.
 */
import type { PostMetric } from '../domain/rules/schema'

/** The fields every account-level call gets (the same as `BoardsInput`). */
export interface AccountCallInput {
  accountId: string
  connection: string
  credentials: Record<string, unknown>
  fetch: typeof fetch
  baseUrl: string
  /** The engine's clock (token expiry, a `Retry-After` date). */
  now: Date
}

/** One figure per metric; `null` means the network reports nothing, never 0. */
export type PostFigures = Record<PostMetric, number | null>

export interface ListPostsInput extends AccountCallInput {
  cursor: string | null
  /** Posts published before this are not wanted: a page may stop early. */
  since: Date
}

/** The account's posts, newest first. */
export interface NetworkPostPage {
  posts: NetworkPost[]
  nextCursor: string | null
}

export interface NetworkPost {
  platformPostId: string
  permalink: string | null
  text: string
  publishedAt: Date
  mediaUrls: string[]
  metrics: PostFigures
}

export interface ListCommentsInput extends AccountCallInput {
  post: { platformPostId: string; publishedAt: Date; permalink: string | null }
  cursor: string | null
  /** The newest comment already known on this post; null: none yet. */
  since: Date | null
}

export interface ListMentionsInput extends AccountCallInput {
  cursor: string | null
  /** The newest mention already known; null: none yet. */
  since: Date | null
}

export interface CommentPage {
  comments: NetworkComment[]
  nextCursor: string | null
}

export interface CommentAuthor {
  externalId: string | null
  name: string
  handle: string | null
  avatarUrl: string | null
}

export interface NetworkComment {
  externalId: string
  /** The comment it answers; null: directly on the post. */
  parentExternalId: string | null
  /** The post it is on (for a mention: where the account was mentioned). */
  postExternalId: string | null
  author: CommentAuthor
  text: string
  createdAt: Date
  permalink: string | null
  /** Written by the connected account itself. */
  fromAccount: boolean
  /** null: the network does not say. */
  hidden: boolean | null
}

export interface CommentRef {
  externalId: string
  postExternalId: string | null
  parentExternalId: string | null
}

export interface CommentActionInput extends AccountCallInput {
  comment: CommentRef
}

export interface HideCommentInput extends CommentActionInput {
  /** true: hide; false: show again. */
  hidden: boolean
}

export interface ReplyInput extends CommentActionInput {
  text: string
  idempotencyKey: string
}

export interface SentReply {
  externalId: string
  permalink: string | null
}

/** The comment (or the post it was on) no longer exists on the network. */
export class CommentGone extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CommentGone'
  }
}

/** The inbox and import methods an adapter may implement (merged into `NetworkAdapter`). */
export interface InboxAdapterMethods {
  /** The account's posts, newest first. */
  listPosts?(input: ListPostsInput): Promise<NetworkPostPage>
  /** Comments and replies of one post. */
  listComments?(input: ListCommentsInput): Promise<CommentPage>
  /** Posts and comments that mention the account. */
  listMentions?(input: ListMentionsInput): Promise<CommentPage>
  replyToComment?(input: ReplyInput): Promise<SentReply>
  /** `hidden` true hides, false shows again. */
  hideComment?(input: HideCommentInput): Promise<void>
  deleteComment?(input: CommentActionInput): Promise<void>
  likeComment?(input: CommentActionInput): Promise<void>
}
