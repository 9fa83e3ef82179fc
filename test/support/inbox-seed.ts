/**
 * Comments stored as the sync stores them (rows of `inbox_comments`), for tests of reading and
 * answering them without running a sync.
 */
import { inboxComments } from '../../src/db/schema'
import type { DbOrTx } from '../../src/db/types'
import { randomBase62 } from '../../src/lib/ids'
import type { PlatformId } from '../../src/domain/vocabulary'

export interface SeedComment {
  workspaceId: string
  accountId: string
  platform: string
  externalId: string
  createdAt: Date
  kind?: 'comment' | 'mention'
  text?: string
  parentId?: string | null
  postId?: string | null
  state?: 'unread' | 'read' | 'replied' | 'hidden'
  fromAccount?: boolean
}

export const seedRow = (c: SeedComment) => ({
  id: `cmt_${randomBase62(22)}`,
  workspaceId: c.workspaceId,
  accountId: c.accountId,
  platform: c.platform as PlatformId,
  kind: c.kind ?? 'comment',
  targetId: null,
  postId: c.postId ?? null,
  externalId: c.externalId,
  parentId: c.parentId ?? null,
  parentExternalId: null,
  postExternalId: 'net_post_1',
  authorExternalId: `author_${c.externalId}`,
  authorName: `Author ${c.externalId}`,
  authorHandle: null,
  authorAvatarUrl: null,
  text: c.text ?? `comment ${c.externalId}`,
  permalink: null,
  fromAccount: c.fromAccount ?? false,
  state: c.state ?? 'unread',
  readAt: c.state === 'read' || c.state === 'replied' ? c.createdAt : null,
  repliedAt: c.state === 'replied' ? c.createdAt : null,
  hiddenAt: c.state === 'hidden' ? c.createdAt : null,
  createdAt: c.createdAt,
  receivedAt: c.createdAt,
  updatedAt: c.createdAt,
})

/** Stores the comments; answers their ids in the order given. */
export async function seedComments(db: DbOrTx, comments: SeedComment[]): Promise<string[]> {
  const rows = comments.map(seedRow)
  for (let i = 0; i < rows.length; i += 1000) await db.insert(inboxComments).values(rows.slice(i, i + 1000))
  return rows.map((r) => r.id)
}
