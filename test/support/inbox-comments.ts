/** Comments and mentions written straight to the inbox table, as the sync would have stored them (dashboard tests). */
import { inboxComments, posts, targets } from '../../src/db/schema'
import type { PlatformId } from '../../src/domain/vocabulary'
import { newId, randomBase62 } from '../../src/lib/ids'
import type { inboxNetwork } from './inbox-network'
import type { TestApp } from './test-app'

/** A post published on one account a while ago (rows written as publishing leaves them). */
export async function publishedPost(t: TestApp, account: { id: string; platform: PlatformId }, caption: string) {
  const postId = newId('post')
  const targetId = newId('target')
  const publishedAt = new Date(t.deps.clock.now().getTime() - 3_600_000)
  await t.deps.db.insert(posts).values({
    id: postId,
    workspaceId: t.workspaceId,
    status: 'PUBLISHED',
    type: 'IMAGE',
    caption,
    publishedAt,
  })
  const platformPostId = `net_${targetId}`
  await t.deps.db.insert(targets).values({
    id: targetId,
    postId,
    workspaceId: t.workspaceId,
    accountId: account.id,
    platform: account.platform,
    status: 'PUBLISHED',
    platformPostId,
    permalink: `https://network.example/p/${targetId}`,
    publishedAt,
  })
  return { postId, target: { id: targetId, postId, platformPostId } }
}

export interface SeedComment {
  account: { id: string; platform: PlatformId }
  text: string
  authorName?: string
  authorHandle?: string | null
  kind?: 'comment' | 'mention'
  /** The published target (and its post) the comment is on. */
  target?: { id: string; postId: string; platformPostId: string | null }
  parentId?: string | null
  fromAccount?: boolean
  state?: 'unread' | 'read' | 'replied' | 'hidden'
  createdAt?: Date
  workspaceId?: string
  /** The in-memory network that holds it (so the actions find it there). */
  network?: ReturnType<typeof inboxNetwork>
}

/** Inserts one comment; returns its id. */
export async function seedComment(t: TestApp, c: SeedComment): Promise<string> {
  const id = `cmt_${randomBase62(16)}`
  const at = c.createdAt ?? new Date(t.deps.clock.now().getTime() - 60_000)
  const state = c.state ?? 'unread'
  await t.deps.db.insert(inboxComments).values({
    id,
    workspaceId: c.workspaceId ?? t.workspaceId,
    accountId: c.account.id,
    platform: c.account.platform,
    kind: c.kind ?? 'comment',
    targetId: c.target?.id ?? null,
    postId: c.target?.postId ?? null,
    externalId: `ext_${id}`,
    parentId: c.parentId ?? null,
    postExternalId: c.target?.platformPostId ?? null,
    authorExternalId: `author_${randomBase62(6)}`,
    authorName: c.authorName ?? 'Sam Stranger',
    authorHandle: c.authorHandle === undefined ? 'sam.stranger' : c.authorHandle,
    text: c.text,
    permalink: null,
    fromAccount: c.fromAccount ?? false,
    state,
    readAt: state === 'unread' ? null : at,
    repliedAt: state === 'replied' ? at : null,
    hiddenAt: state === 'hidden' ? at : null,
    createdAt: at,
  })
  c.network?.add(`ext_${id}`, c.text)
  return id
}
