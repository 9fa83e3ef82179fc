/** TEMP copy of the issue-37 contract (core's file replaces this on merge). */
export type PostFigures = {
  likes: number | null
  comments: number | null
  shares: number | null
  views: number | null
  saves: number | null
  clicks: number | null
  impressions: number | null
  reach: number | null
}
export interface AccountCallInput {
  accountId: string
  connection: string
  credentials: Record<string, unknown>
  fetch: typeof fetch
  baseUrl: string
  now: Date
}
export interface ListPostsInput extends AccountCallInput {
  cursor: string | null
  since: Date
}
export interface NetworkPost {
  platformPostId: string
  permalink: string | null
  text: string
  publishedAt: Date
  mediaUrls: string[]
  metrics: PostFigures
}
export interface NetworkPostPage {
  posts: NetworkPost[]
  nextCursor: string | null
}
export interface ListCommentsInput extends AccountCallInput {
  post: { platformPostId: string; publishedAt: Date; permalink: string | null }
  cursor: string | null
  since: Date | null
}
export interface ListMentionsInput extends AccountCallInput {
  cursor: string | null
  since: Date | null
}
export interface NetworkComment {
  externalId: string
  parentExternalId: string | null
  postExternalId: string | null
  author: { externalId: string | null; name: string; handle: string | null; avatarUrl: string | null }
  text: string
  createdAt: Date
  permalink: string | null
  fromAccount: boolean
  hidden: boolean | null
}
export interface CommentPage {
  comments: NetworkComment[]
  nextCursor: string | null
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
export class CommentGone extends Error {}
