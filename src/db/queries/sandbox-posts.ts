/**
 * The simulated network's store (`SandboxStore`, src/domain/sandbox-posts.ts) over `sandbox_posts`:
 * what SANDBOX accounts have "published".
 */
import { and, asc, eq } from 'drizzle-orm'
import { accounts, sandboxPosts } from '../schema'
import type { Db } from '../types'
import { randomBase62 } from '../../lib/ids'
import type { SandboxPost, SandboxPostKind, SandboxStore } from '../../domain/sandbox-posts'
import { createDrizzleSandboxCommentStore } from './sandbox-comments'

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
    comments: createDrizzleSandboxCommentStore(db),
  }
}
