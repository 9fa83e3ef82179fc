/**
 * Hosted connect links and the OAuth states started from them. Tokens and states are looked up by
 * their SHA-256 only; "use" is one conditional UPDATE, so a link or a state is taken once however
 * many requests race for it.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { connectChoices, connectLinks, oauthStates } from '../schema'
import type { DbOrTx } from '../types'

export type ConnectLinkRow = typeof connectLinks.$inferSelect
export type OAuthStateRow = typeof oauthStates.$inferSelect
export type ConnectChoiceRow = typeof connectChoices.$inferSelect

export async function insertConnectLink(db: DbOrTx, values: typeof connectLinks.$inferInsert): Promise<ConnectLinkRow> {
  const [row] = await db.insert(connectLinks).values(values).returning()
  return row!
}

/** The link with this token hash, whatever its state (the caller says why it cannot be used). */
export async function findConnectLink(db: DbOrTx, tokenHash: string): Promise<ConnectLinkRow | null> {
  const [row] = await db.select().from(connectLinks).where(eq(connectLinks.tokenHash, tokenHash))
  return row ?? null
}

export async function findConnectLinkById(db: DbOrTx, id: string): Promise<ConnectLinkRow | null> {
  const [row] = await db.select().from(connectLinks).where(eq(connectLinks.id, id))
  return row ?? null
}

/** Takes the link if it is unused and not expired at `now`; false when it was not (used, expired). */
export async function useConnectLink(tx: DbOrTx, linkId: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(connectLinks)
    .set({ usedAt: now })
    .where(and(eq(connectLinks.id, linkId), isNull(connectLinks.usedAt), gt(connectLinks.expiresAt, now)))
    .returning({ id: connectLinks.id })
  return rows.length === 1
}

export async function insertOAuthState(db: DbOrTx, values: typeof oauthStates.$inferInsert): Promise<void> {
  await db.insert(oauthStates).values(values)
}

/**
 * Takes the state with this hash if it is unused, not expired at `now` and for this platform;
 * the row either way, and whether it was taken now.
 */
export async function takeOAuthState(
  db: DbOrTx,
  stateHash: string,
  platform: string,
  now: Date,
): Promise<{ row: OAuthStateRow | null; taken: boolean }> {
  const [taken] = await db
    .update(oauthStates)
    .set({ usedAt: now })
    .where(
      and(
        eq(oauthStates.stateHash, stateHash),
        isNull(oauthStates.usedAt),
        gt(oauthStates.expiresAt, now),
        sql`${oauthStates.platform} = ${platform}`,
      ),
    )
    .returning()
  if (taken) return { row: taken, taken: true }
  const [row] = await db.select().from(oauthStates).where(eq(oauthStates.stateHash, stateHash))
  return { row: row ?? null, taken: false }
}

/**
 * Deletes up to `limit` links that ended (expired or used) before `before`, their states with
 * them (cascade); how many went.
 */
export async function deleteEndedConnectLinks(db: DbOrTx, before: Date, limit: number): Promise<number> {
  const rows = await db
    .delete(connectLinks)
    .where(
      sql`${connectLinks.id} in (select id from connect_links where expires_at < ${before} order by expires_at limit ${limit})`,
    )
    .returning({ id: connectLinks.id })
  return rows.length
}

export async function insertConnectChoice(db: DbOrTx, values: typeof connectChoices.$inferInsert): Promise<void> {
  await db.insert(connectChoices).values(values)
}

/**
 * Takes the pending choice with this token hash for this platform if it has not expired at `now`:
 * one DELETE, so it is taken once however many requests race for it; null when there is none.
 */
export async function takeConnectChoice(
  db: DbOrTx,
  tokenHash: string,
  platform: string,
  now: Date,
): Promise<ConnectChoiceRow | null> {
  const [row] = await db
    .delete(connectChoices)
    .where(
      and(
        eq(connectChoices.tokenHash, tokenHash),
        gt(connectChoices.expiresAt, now),
        sql`${connectChoices.platform} = ${platform}`,
      ),
    )
    .returning()
  return row ?? null
}

/** Deletes up to `limit` pending choices (sealed tokens) that expired before `now`; how many went. */
export async function deleteExpiredConnectChoices(db: DbOrTx, now: Date, limit: number): Promise<number> {
  const rows = await db
    .delete(connectChoices)
    .where(
      sql`${connectChoices.id} in (select id from connect_choices where expires_at < ${now} order by expires_at limit ${limit})`,
    )
    .returning({ id: connectChoices.id })
  return rows.length
}
