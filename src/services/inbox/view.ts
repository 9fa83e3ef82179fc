/** The API's view of inbox rows: `InboxComment` and `InboxReply` (src/schemas/inbox*.ts). */
import type { InboxCommentRow, InboxReplyRow } from '../../db/queries/inbox-read'
import type { InboxKind, InboxReplyStatus, InboxState, PlatformId } from '../../domain/vocabulary'

export interface InboxCommentView {
  id: string
  kind: InboxKind
  accountId: string
  platform: PlatformId
  postId: string | null
  targetId: string | null
  parentId: string | null
  externalId: string
  permalink: string | null
  author: { name: string; handle: string | null; externalId: string | null; avatarUrl: string | null }
  text: string
  fromAccount: boolean
  state: InboxState
  liked: boolean
  gone: boolean
  createdAt: string
  receivedAt: string
}

export function toInboxComment(row: InboxCommentRow): InboxCommentView {
  return {
    id: row.id,
    kind: row.kind,
    accountId: row.accountId,
    platform: row.platform,
    postId: row.postId,
    targetId: row.targetId,
    parentId: row.parentId,
    externalId: row.externalId,
    permalink: row.permalink,
    author: {
      name: row.authorName,
      handle: row.authorHandle,
      externalId: row.authorExternalId,
      avatarUrl: row.authorAvatarUrl,
    },
    text: row.text,
    fromAccount: row.fromAccount,
    state: row.state,
    liked: row.likedAt !== null,
    gone: row.goneAt !== null,
    createdAt: row.createdAt.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
  }
}

export interface InboxReplyView {
  id: string
  commentId: string
  text: string
  status: InboxReplyStatus
  externalId: string | null
  permalink: string | null
  error: { code: string; message: string } | null
  createdAt: string
  sentAt: string | null
}

export function toInboxReply(row: InboxReplyRow): InboxReplyView {
  return {
    id: row.id,
    commentId: row.commentId,
    text: row.text,
    status: row.status,
    externalId: row.externalId,
    permalink: row.permalink,
    error: row.error ?? null,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  }
}
