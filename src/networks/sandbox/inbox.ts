/**
 * The simulated network's comments for the inbox (docs/decisions.md, "Sandbox accounts"): the
 * account's posts, the comments and replies visitors write on a post's public page, mentions, and
 * the account's replies, hiding, deleting and liking, over `SandboxCommentStore`.
 *
 * Mentions, the sandbox's rule: a comment whose text holds `@username` (the account's username, a
 * whole word, any case) on a sandbox post of another account of the same workspace; comments on
 * the account's own posts come as comments instead.
 *
 * Who may act, as a network decides: hiding and deleting on the account's own posts, liking and
 * replying on any comment it can see (a reply to a mention is written on the other account's post).
 */
import {
  mentions,
  type SandboxComment,
  type SandboxCommentStore,
  type SandboxCursor,
} from '../../domain/sandbox-comments'
import type { SandboxStore } from '../../domain/sandbox-posts'
import type {
  AccountCallInput,
  CommentActionInput,
  CommentPage,
  HideCommentInput,
  ListCommentsInput,
  ListMentionsInput,
  ListPostsInput,
  NetworkComment,
  NetworkPostPage,
  PostFigures,
  ReplyInput,
  SentReply,
} from '../adapter'
import { CommentGone } from '../inbox-adapter'
import { NetworkFailure } from '../http'
import type { PlatformRules } from '../../domain/rules/schema'

export interface SandboxInboxOptions {
  store: SandboxStore
  comments: SandboxCommentStore
  permalink: (postId: string) => string
  /** Figures of a head post as of `now` (the platform's registry decides which are reported). */
  figures: (accountId: string, post: { id: string; createdAt: Date }, now: Date) => Promise<PostFigures>
  /** Items per page (the network's page size). */
  pageSize: number
}

const encodeCursor = (last: { createdAt: Date; id: string }) => `${last.createdAt.toISOString()}~${last.id}`

function decodeCursor(cursor: string | null): SandboxCursor | null {
  if (cursor === null) return null
  const [iso, id] = cursor.split('~')
  const at = new Date(iso ?? '')
  if (!id || Number.isNaN(at.getTime()))
    throw new NetworkFailure('rejected', 'The sandbox network does not know this cursor.')
  return { at, id }
}

/** The cursor of the next page: set when the page is full. */
const nextCursor = (rows: Array<{ createdAt: Date; id: string }>, limit: number) =>
  rows.length === limit && rows.length > 0 ? encodeCursor(rows[rows.length - 1]!) : null

export function createSandboxInbox(options: SandboxInboxOptions) {
  const { store, comments, permalink, pageSize } = options

  function toNetworkComment(comment: SandboxComment, accountId: string, username: string | null): NetworkComment {
    const own = comment.fromAccount && comment.accountId === accountId
    return {
      externalId: comment.id,
      parentExternalId: comment.replyToId,
      postExternalId: comment.sandboxPostId,
      author: {
        externalId: own ? accountId : null,
        name: comment.authorName,
        handle: own ? username : null,
        avatarUrl: null,
      },
      text: comment.text,
      createdAt: comment.createdAt,
      permalink: `${permalink(comment.sandboxPostId)}#${encodeURIComponent(comment.id)}`,
      fromAccount: own,
      hidden: comment.hidden,
    }
  }

  /** The comment to act on; `CommentGone` when it, or the post it is on, no longer exists. */
  async function liveComment(input: CommentActionInput): Promise<SandboxComment> {
    const comment = await comments.get(input.comment.externalId)
    if (!comment || comment.deletedAt !== null) throw new CommentGone('The comment was deleted on the sandbox network.')
    if (!(await store.get(comment.sandboxPostId)))
      throw new CommentGone('The post this comment was on was deleted on the sandbox network.')
    return comment
  }

  function requireOwnPost(comment: SandboxComment, input: AccountCallInput, action: string): void {
    if (comment.accountId !== input.accountId)
      throw new NetworkFailure(
        'rejected',
        `The sandbox network lets an account ${action} comments on its own posts only.`,
      )
  }

  async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
    const rows = await comments.listPosts({
      accountId: input.accountId,
      since: input.since,
      after: decodeCursor(input.cursor),
      limit: pageSize,
    })
    const posts = await Promise.all(
      rows.map(async (row) => ({
        platformPostId: row.id,
        permalink: permalink(row.id),
        text: row.text,
        publishedAt: row.createdAt,
        mediaUrls: row.media,
        metrics: await options.figures(input.accountId, row, input.now),
      })),
    )
    return { posts, nextCursor: nextCursor(rows, pageSize) }
  }

  async function listComments(input: ListCommentsInput): Promise<CommentPage> {
    const post = await store.get(input.post.platformPostId)
    if (!post) throw new CommentGone('The post was deleted on the sandbox network.')
    const rows = await comments.listForPost(post.id, {
      since: input.since,
      after: decodeCursor(input.cursor),
      limit: pageSize,
    })
    const username = await store.accountUsername(input.accountId)
    return {
      comments: rows.map((row) => toNetworkComment(row, input.accountId, username)),
      nextCursor: nextCursor(rows, pageSize),
    }
  }

  async function listMentions(input: ListMentionsInput): Promise<CommentPage> {
    const username = await store.accountUsername(input.accountId)
    if (!username) return { comments: [], nextCursor: null }
    const rows = await comments.listMentions({
      accountId: input.accountId,
      username,
      since: input.since,
      after: decodeCursor(input.cursor),
      limit: pageSize,
    })
    // The store answers every comment holding the text; the page keeps those naming the account as a whole word.
    return {
      comments: rows
        .filter((row) => mentions(row.text, username))
        .map((row) => toNetworkComment(row, input.accountId, username)),
      nextCursor: nextCursor(rows, pageSize),
    }
  }

  async function replyToComment(input: ReplyInput): Promise<SentReply> {
    const parent = await liveComment(input)
    const username = await store.accountUsername(input.accountId)
    const reply = await comments.addOnce(
      {
        accountId: parent.accountId,
        sandboxPostId: parent.sandboxPostId,
        replyToId: parent.id,
        authorName: username ?? input.accountId,
        text: input.text,
        fromAccount: parent.accountId === input.accountId,
        createdAt: input.now,
      },
      `${input.accountId}:${input.idempotencyKey}`,
    )
    return { externalId: reply.id, permalink: `${permalink(reply.sandboxPostId)}#${encodeURIComponent(reply.id)}` }
  }

  async function hideComment(input: HideCommentInput): Promise<void> {
    const comment = await liveComment(input)
    requireOwnPost(comment, input, 'hide')
    await comments.setHidden(comment.id, input.hidden)
  }

  async function deleteComment(input: CommentActionInput): Promise<void> {
    const comment = await liveComment(input)
    requireOwnPost(comment, input, 'delete')
    await comments.markDeleted(comment.id, input.now)
  }

  async function likeComment(input: CommentActionInput): Promise<void> {
    const comment = await liveComment(input)
    await comments.setLiked(comment.id)
  }

  return { listPosts, listComments, listMentions, replyToComment, hideComment, deleteComment, likeComment }
}

export type SandboxInbox = ReturnType<typeof createSandboxInbox>

/** The methods one platform's network has (registry `inbox` and `insights.importsPosts`), as its real adapter would. */
export function inboxView(inbox: SandboxInbox, rules: PlatformRules): Partial<SandboxInbox> {
  const { inbox: allowed } = rules
  return {
    ...(rules.insights.importsPosts ? { listPosts: inbox.listPosts } : {}),
    ...(allowed.comments ? { listComments: inbox.listComments } : {}),
    ...(allowed.mentions ? { listMentions: inbox.listMentions } : {}),
    ...(allowed.reply ? { replyToComment: inbox.replyToComment } : {}),
    ...(allowed.hide ? { hideComment: inbox.hideComment } : {}),
    ...(allowed.delete ? { deleteComment: inbox.deleteComment } : {}),
    ...(allowed.like ? { likeComment: inbox.likeComment } : {}),
  }
}
