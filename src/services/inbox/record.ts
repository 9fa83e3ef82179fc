import type { InboxCommentRow } from '../../db/queries/inbox-store'
import type { InboxKind, InboxState, PlatformId } from '../../domain/vocabulary'

/** One comment or mention as the API and the events give it (schemas/inbox.ts `InboxCommentSchema`). */
export interface InboxCommentRecord {
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

/** The API's record of an inbox row (InboxCommentSchema). */
export function toInboxCommentRecord(row: InboxCommentRow): InboxCommentRecord {
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
