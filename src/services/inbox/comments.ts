/**
 * Reading the inbox (`GET /v1/inbox/...`): pages of comments and mentions, one comment with its
 * thread, the unread counts, and marking comments read or unread. Another workspace's comment is
 * 404 like one never stored.
 */
import {
  countUnreadByKind,
  selectAncestorIds,
  selectDescendantIds,
  selectInboxComment,
  selectInboxComments,
  selectInboxPage,
  selectInOrder,
  selectRepliesOf,
  type InboxCommentRow,
} from '../../db/queries/inbox-read'
import { updateReadMarks } from '../../db/queries/inbox-actions'
import type { DbOrTx } from '../../db/types'
import { type ScopeFilter, selectVisibleCommentIds } from '../../db/queries/scope'
import { AppError } from '../../domain/errors'
import type { InboxState, PlatformId } from '../../domain/vocabulary'
import { toInboxCommentRecord, type InboxCommentRecord } from './record'
import { toInboxReply, type InboxReplyView } from './view'

export const INBOX_PAGE_DEFAULT = 50
export const INBOX_PAGE_MAX = 100
/** How far up a thread is shown, and how many replies under a comment. */
const THREAD_DEPTH = 20
const THREAD_REPLIES = 200

/** `groupId`, `labelId` (of the post commented on) and a limited caller's groups narrow the list. */
export interface InboxFilters extends ScopeFilter {
  accountId?: string | undefined
  platform?: PlatformId | undefined
  postId?: string | undefined
  state?: InboxState | undefined
  cursor?: string | undefined
  limit?: number | undefined
}

export interface InboxPage {
  data: InboxCommentRecord[]
  nextCursor: string | null
}

/** A page of the comments others wrote on the workspace's posts, newest first (ties by id). */
export function listInboxComments(db: DbOrTx, workspaceId: string, filters: InboxFilters): Promise<InboxPage> {
  return listKind(db, workspaceId, 'comment', filters)
}

/** A page of the places the workspace's accounts were mentioned, newest first. */
export function listMentions(
  db: DbOrTx,
  workspaceId: string,
  filters: Omit<InboxFilters, 'postId'>,
): Promise<InboxPage> {
  return listKind(db, workspaceId, 'mention', filters)
}

async function listKind(
  db: DbOrTx,
  workspaceId: string,
  kind: 'comment' | 'mention',
  filters: InboxFilters,
): Promise<InboxPage> {
  const limit = filters.limit ?? INBOX_PAGE_DEFAULT
  const rows = await selectInboxPage(db, workspaceId, {
    kind,
    accountId: filters.accountId,
    platform: filters.platform,
    postId: filters.postId,
    state: filters.state,
    afterId: filters.cursor,
    groupId: filters.groupId,
    labelId: filters.labelId,
    visibleGroupIds: filters.visibleGroupIds,
    limit: limit + 1,
  })
  // An empty page after a cursor: the cursor may be one this list never gave (checked only then).
  if (
    rows.length === 0 &&
    filters.cursor !== undefined &&
    (await selectInboxComment(db, workspaceId, filters.cursor)).length === 0
  ) {
    throw new AppError('invalid_request', 'The cursor is not one this list gave; start again without it.', {
      details: [{ path: 'query.cursor', message: 'unknown cursor' }],
    })
  }
  const data = rows.slice(0, limit).map(toInboxCommentRecord)
  return { data, nextCursor: rows.length > limit ? data[data.length - 1]!.id : null }
}

/** The workspace's comment row, or 404. */
export async function commentRow(db: DbOrTx, workspaceId: string, id: string): Promise<InboxCommentRow> {
  const [row] = await selectInboxComment(db, workspaceId, id)
  if (!row) throw new AppError('not_found', 'Comment not found.')
  return row
}

export interface CommentThread {
  comment: InboxCommentRecord
  ancestors: InboxCommentRecord[]
  replies: InboxCommentRecord[]
  sentReplies: InboxReplyView[]
}

/** One comment with the comments it answers (the first first), the replies under it, and the replies sent. */
export async function getInboxComment(db: DbOrTx, workspaceId: string, id: string): Promise<CommentThread> {
  const row = await commentRow(db, workspaceId, id)
  const up = await selectAncestorIds(db, workspaceId, id, THREAD_DEPTH)
  const down = await selectDescendantIds(db, workspaceId, id, THREAD_REPLIES)
  const ancestors = (await selectInOrder(db, workspaceId, up)).reverse()
  const replies = (await selectInOrder(db, workspaceId, down)).sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  )
  return {
    comment: toInboxCommentRecord(row),
    ancestors: ancestors.map(toInboxCommentRecord),
    replies: replies.map(toInboxCommentRecord),
    sentReplies: (await selectRepliesOf(db, workspaceId, id)).map(toInboxReply),
  }
}

/**
 * Marks the workspace's comments `ids` read or unread, all or none: an id that is not one of the
 * workspace's comments is 422 `invalid_option` naming it, and nothing is marked.
 */
export async function markCommentsRead(
  db: DbOrTx,
  input: { workspaceId: string; ids: string[]; read: boolean; now: Date; visibleGroupIds?: readonly string[] | null },
): Promise<InboxCommentRecord[]> {
  const ids = [...new Set(input.ids)]
  const groups = input.visibleGroupIds ?? null
  const found = new Set(
    groups === null
      ? (await selectInboxComments(db, input.workspaceId, ids)).map((r) => r.id)
      : await selectVisibleCommentIds(db, input.workspaceId, ids, groups),
  )
  const details = input.ids.flatMap((id, i) =>
    found.has(id) ? [] : [{ path: `commentIds.${i}`, message: `No comment ${id} in this workspace.` }],
  )
  if (details.length > 0) throw new AppError('invalid_option', details[0]!.message, { details })
  const rows = await updateReadMarks(db, input.workspaceId, { ids, read: input.read, now: input.now })
  return rows.map(toInboxCommentRecord)
}

/** Marks one comment read or unread; 404 when it is not the workspace's. */
export async function markCommentRead(
  db: DbOrTx,
  input: { workspaceId: string; id: string; read: boolean; now: Date },
): Promise<InboxCommentRecord> {
  const [row] = await updateReadMarks(db, input.workspaceId, { ids: [input.id], read: input.read, now: input.now })
  if (!row) throw new AppError('not_found', 'Comment not found.')
  return toInboxCommentRecord(row)
}

/** Unread comments and mentions (others' words still on the network). */
export async function countUnread(
  db: DbOrTx,
  workspaceId: string,
  scope: ScopeFilter = {},
): Promise<{ unread: number; comments: number; mentions: number }> {
  const counts = await countUnreadByKind(db, workspaceId, scope)
  return { unread: counts.comment + counts.mention, comments: counts.comment, mentions: counts.mention }
}
