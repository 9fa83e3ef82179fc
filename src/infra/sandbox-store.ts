/**
 * What the built-in simulated network (SANDBOX accounts) has "published": the port its adapter
 * writes through, and its Drizzle implementation over `sandbox_posts`. One row per network post:
 * a head post, a thread part (a reply to the previous one) or a comment under the head.
 */
import { and, asc, eq } from 'drizzle-orm'
import { accounts, sandboxPosts } from '../db/schema'
import type { Db } from '../db/types'
import { randomBase62 } from '../lib/ids'
import type { PlatformId } from '../domain/vocabulary'

export type SandboxPostKind = 'post' | 'part' | 'comment'

export interface SandboxMedia {
  url: string
  type: string
}

export interface SandboxPost {
  id: string
  accountId: string
  platform: PlatformId
  /** Unique per account, like a network's idempotency key: the same key never makes a second post. */
  idempotencyKey: string
  /** The post this one answers (a thread part, a comment); null for a head post. */
  replyToId: string | null
  kind: SandboxPostKind
  text: string
  media: SandboxMedia[]
  /** What the post was published with (format, board, pin title, link...), for its page. */
  options: Record<string, unknown>
  createdAt: Date
}

export type NewSandboxPost = Omit<SandboxPost, 'id' | 'createdAt'>

export interface SandboxStore {
  /** Stores `post` unless the account already has one under its idempotency key; returns the stored one either way. */
  insertOrGet(post: NewSandboxPost): Promise<SandboxPost>
  findByKey(accountId: string, idempotencyKey: string): Promise<SandboxPost | null>
  get(id: string): Promise<SandboxPost | null>
  /** Direct replies of a post (thread part, comments), oldest first. */
  replies(id: string): Promise<SandboxPost[]>
  /** True when a post was removed. */
  delete(id: string): Promise<boolean>
  /** The username of the account a post belongs to, for its page; null when the account is gone. */
  accountUsername(accountId: string): Promise<string | null>
}

/** Network post ids look like the networks' own: opaque, prefixed, not guessable. */
export const newSandboxPostId = () => `sbx_${randomBase62(22)}`

type Row = typeof sandboxPosts.$inferSelect

function toPost(row: Row): SandboxPost {
  return { ...row, platform: row.platform, kind: row.kind as SandboxPostKind }
}

export function createDrizzleSandboxStore(db: Db): SandboxStore {
  const findByKey = async (accountId: string, idempotencyKey: string) => {
    const [row] = await db
      .select()
      .from(sandboxPosts)
      .where(and(eq(sandboxPosts.accountId, accountId), eq(sandboxPosts.idempotencyKey, idempotencyKey)))
    return row ? toPost(row) : null
  }
  return {
    findByKey,
    async insertOrGet(post) {
      // ON CONFLICT DO NOTHING then read back: two concurrent calls with one key store one row and both see it.
      const [inserted] = await db
        .insert(sandboxPosts)
        .values({ ...post, id: newSandboxPostId() })
        .onConflictDoNothing({ target: [sandboxPosts.accountId, sandboxPosts.idempotencyKey] })
        .returning()
      if (inserted) return toPost(inserted)
      const existing = await findByKey(post.accountId, post.idempotencyKey)
      if (!existing)
        throw new Error(`sandbox post ${post.accountId}/${post.idempotencyKey} conflicted but cannot be read`)
      return existing
    },
    async get(id) {
      const [row] = await db.select().from(sandboxPosts).where(eq(sandboxPosts.id, id))
      return row ? toPost(row) : null
    },
    async replies(id) {
      const rows = await db
        .select()
        .from(sandboxPosts)
        .where(eq(sandboxPosts.replyToId, id))
        .orderBy(asc(sandboxPosts.createdAt), asc(sandboxPosts.id))
      return rows.map(toPost)
    },
    async delete(id) {
      const removed = await db.delete(sandboxPosts).where(eq(sandboxPosts.id, id)).returning({ id: sandboxPosts.id })
      return removed.length > 0
    },
    async accountUsername(accountId) {
      const [row] = await db.select({ username: accounts.username }).from(accounts).where(eq(accounts.id, accountId))
      return row?.username ?? null
    },
  }
}
