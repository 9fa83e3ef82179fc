/** What the notifications of the engine and of accounts name: the post's creator, the account's name. */
import { eq, sql } from 'drizzle-orm'
import { accounts, posts } from '../schema'
import type { DbOrTx } from '../types'

/** The post's creator (an ActorRef, null for posts made before it was recorded). */
export async function selectPostCreator(db: DbOrTx, postId: string): Promise<{ kind: string; id: string | null } | null> {
  const [row] = await db
    .select({ createdBy: sql<{ kind: string; id: string | null } | null>`${posts}.created_by` })
    .from(posts)
    .where(eq(posts.id, postId))
  return row?.createdBy ?? null
}

export async function selectAccountName(db: DbOrTx, accountId: string) {
  const [row] = await db
    .select({ username: accounts.username, platform: accounts.platform })
    .from(accounts)
    .where(eq(accounts.id, accountId))
  return row ?? null
}
