/**
 * The simulated network's comments (`SandboxCommentStore`, src/domain/sandbox-comments.ts) over
 * `sandbox_comments`: what visitors write on a sandbox post's page and the accounts' replies.
 */
import { and, asc, count, desc, eq, gt, gte, ilike, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm'
import { accounts, sandboxComments, sandboxPosts } from '../schema'
import type { Db } from '../types'
import { sha256Hex } from '../../lib/crypto'
import { randomBase62 } from '../../lib/ids'
import type { SandboxComment, SandboxCommentStore, SandboxCursor } from '../../domain/sandbox-comments'

type Row = typeof sandboxComments.$inferSelect

const toComment = (row: Row): SandboxComment => ({ ...row })

/** After `cursor` in (created_at, id) ascending order. */
const afterAsc = (cursor: SandboxCursor | null): SQL | undefined =>
  cursor
    ? or(
        gt(sandboxComments.createdAt, cursor.at),
        and(eq(sandboxComments.createdAt, cursor.at), gt(sandboxComments.id, cursor.id)),
      )
    : undefined

/** `%`, `_` and `\` as themselves in a LIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`)

export function createDrizzleSandboxCommentStore(db: Db): SandboxCommentStore {
  const get = async (id: string) => {
    const [row] = await db.select().from(sandboxComments).where(eq(sandboxComments.id, id))
    return row ? toComment(row) : null
  }
  return {
    get,
    async add(comment) {
      const [row] = await db
        .insert(sandboxComments)
        .values({ ...comment, id: `sbc_${randomBase62(22)}` })
        .returning()
      return toComment(row!)
    },
    async addOnce(comment, idempotencyKey) {
      // The id comes from the key: a retry inserts nothing and reads back the reply the first call made.
      const id = `sbc_${(await sha256Hex(`reply:${idempotencyKey}`)).slice(0, 32)}`
      await db
        .insert(sandboxComments)
        .values({ ...comment, id })
        .onConflictDoNothing({ target: sandboxComments.id })
      const stored = await get(id)
      if (!stored) throw new Error('sandbox reply conflicted but cannot be read')
      return stored
    },
    async listForPost(sandboxPostId, query) {
      const rows = await db
        .select()
        .from(sandboxComments)
        .where(
          and(
            eq(sandboxComments.sandboxPostId, sandboxPostId),
            isNull(sandboxComments.deletedAt),
            query.since ? gte(sandboxComments.createdAt, query.since) : undefined,
            afterAsc(query.after),
          ),
        )
        .orderBy(asc(sandboxComments.createdAt), asc(sandboxComments.id))
        .limit(query.limit)
      return rows.map(toComment)
    },
    async listMentions(query) {
      const workspace = db.select({ id: accounts.workspaceId }).from(accounts).where(eq(accounts.id, query.accountId))
      const rows = await db
        .select({ comment: sandboxComments })
        .from(sandboxComments)
        .innerJoin(accounts, eq(accounts.id, sandboxComments.accountId))
        .where(
          and(
            sql`${accounts.workspaceId} = (${workspace})`,
            ne(sandboxComments.accountId, query.accountId),
            isNull(sandboxComments.deletedAt),
            ilike(sandboxComments.text, `%@${likeLiteral(query.username.replace(/^@/, ''))}%`),
            query.since ? gte(sandboxComments.createdAt, query.since) : undefined,
            afterAsc(query.after),
          ),
        )
        .orderBy(asc(sandboxComments.createdAt), asc(sandboxComments.id))
        .limit(query.limit)
      return rows.map((r) => toComment(r.comment))
    },
    async listPosts(query) {
      const after = query.after
      const rows = await db
        .select({
          id: sandboxPosts.id,
          text: sandboxPosts.text,
          createdAt: sandboxPosts.createdAt,
          media: sandboxPosts.media,
        })
        .from(sandboxPosts)
        .where(
          and(
            eq(sandboxPosts.accountId, query.accountId),
            eq(sandboxPosts.kind, 'post'),
            gte(sandboxPosts.createdAt, query.since),
            after
              ? or(
                  lt(sandboxPosts.createdAt, after.at),
                  and(eq(sandboxPosts.createdAt, after.at), lt(sandboxPosts.id, after.id)),
                )
              : undefined,
          ),
        )
        .orderBy(desc(sandboxPosts.createdAt), desc(sandboxPosts.id))
        .limit(query.limit)
      return rows.map((row) => ({ ...row, media: row.media.map((m) => m.url) }))
    },
    async countsFor(sandboxPostIds) {
      if (sandboxPostIds.length === 0) return new Map()
      const rows = await db
        .select({ postId: sandboxComments.sandboxPostId, n: count() })
        .from(sandboxComments)
        .where(and(inArray(sandboxComments.sandboxPostId, sandboxPostIds), isNull(sandboxComments.deletedAt)))
        .groupBy(sandboxComments.sandboxPostId)
      return new Map(rows.map((row) => [row.postId, row.n]))
    },
    async setHidden(id, hidden) {
      await db.update(sandboxComments).set({ hidden }).where(eq(sandboxComments.id, id))
    },
    async setLiked(id) {
      await db.update(sandboxComments).set({ liked: true }).where(eq(sandboxComments.id, id))
    },
    async markDeleted(id, at) {
      // One statement: the comment and the replies under it go together.
      await db
        .update(sandboxComments)
        .set({ deletedAt: at })
        .where(
          and(or(eq(sandboxComments.id, id), eq(sandboxComments.replyToId, id)), isNull(sandboxComments.deletedAt)),
        )
    },
  }
}
