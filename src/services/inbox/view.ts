/** The API's view of a reply row: `InboxReply` (src/schemas/inbox*.ts). Comments: ./record.ts. */
import type { InboxReplyRow } from '../../db/queries/inbox-read'
import type { InboxReplyStatus } from '../../domain/vocabulary'

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
