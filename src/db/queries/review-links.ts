/** Queries of client review links (stored by token hash only) and of what a link shows: its group's upcoming posts. */
import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm'
import type { PostStatus } from '../../domain/vocabulary'
import { accountGroupMembers, accountGroups, accounts, posts, reviewLinks, targets, workspaces } from '../schema'
import type { DbOrTx } from '../types'

export type ReviewLinkRow = typeof reviewLinks.$inferSelect
export type NewReviewLinkRow = typeof reviewLinks.$inferInsert

/** A link with its group's name. */
export type ReviewLinkView = ReviewLinkRow & { groupName: string }

const viewColumns = { link: reviewLinks, groupName: accountGroups.name }

export async function insertReviewLink(db: DbOrTx, values: NewReviewLinkRow): Promise<ReviewLinkRow> {
  const [row] = await db.insert(reviewLinks).values(values).returning()
  return row!
}

/** The workspace's group with this id (its name), or null. */
export async function findWorkspaceGroup(db: DbOrTx, workspaceId: string, groupId: string) {
  const [row] = await db
    .select({ id: accountGroups.id, name: accountGroups.name })
    .from(accountGroups)
    .where(and(eq(accountGroups.workspaceId, workspaceId), eq(accountGroups.id, groupId)))
  return row ?? null
}

/** The workspace's links, newest first, revoked and expired ones too. */
export async function selectWorkspaceReviewLinks(db: DbOrTx, workspaceId: string): Promise<ReviewLinkView[]> {
  const rows = await db
    .select(viewColumns)
    .from(reviewLinks)
    .innerJoin(accountGroups, eq(accountGroups.id, reviewLinks.groupId))
    .where(eq(reviewLinks.workspaceId, workspaceId))
    .orderBy(desc(reviewLinks.createdAt), desc(reviewLinks.id))
  return rows.map((r) => ({ ...r.link, groupName: r.groupName }))
}

export async function findWorkspaceReviewLink(
  db: DbOrTx,
  workspaceId: string,
  id: string,
): Promise<ReviewLinkView | null> {
  const [row] = await db
    .select(viewColumns)
    .from(reviewLinks)
    .innerJoin(accountGroups, eq(accountGroups.id, reviewLinks.groupId))
    .where(and(eq(reviewLinks.workspaceId, workspaceId), eq(reviewLinks.id, id)))
  return row ? { ...row.link, groupName: row.groupName } : null
}

/** Revokes the link if it is not revoked yet; the row as revoked, or null (none, or revoked before). */
export async function revokeWorkspaceReviewLink(
  db: DbOrTx,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<ReviewLinkRow | null> {
  const [row] = await db
    .update(reviewLinks)
    .set({ revokedAt: now })
    .where(and(eq(reviewLinks.workspaceId, workspaceId), eq(reviewLinks.id, id), isNull(reviewLinks.revokedAt)))
    .returning()
  return row ?? null
}

/** The link a token opens (by its hash and the id it names), with its group's and workspace's names and zone. */
export async function findReviewLinkByHash(db: DbOrTx, id: string, tokenHash: string) {
  const [row] = await db
    .select({
      link: reviewLinks,
      groupName: accountGroups.name,
      workspaceName: workspaces.name,
      timezone: workspaces.timezone,
    })
    .from(reviewLinks)
    .innerJoin(accountGroups, eq(accountGroups.id, reviewLinks.groupId))
    .innerJoin(workspaces, eq(workspaces.id, reviewLinks.workspaceId))
    .where(and(eq(reviewLinks.id, id), eq(reviewLinks.tokenHash, tokenHash)))
  return row ?? null
}

/** Notes the link's use, at most once per `resolutionMs`. */
export async function touchReviewLink(db: DbOrTx, id: string, now: Date, resolutionMs: number): Promise<void> {
  await db
    .update(reviewLinks)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(reviewLinks.id, id),
        or(isNull(reviewLinks.lastUsedAt), sql`${reviewLinks.lastUsedAt} < ${new Date(now.getTime() - resolutionMs)}`),
      ),
    )
}

/** The group's accounts (those a link's page previews). */
export function selectGroupAccounts(db: DbOrTx, workspaceId: string, groupId: string) {
  return db
    .select({ id: accounts.id, platform: accounts.platform, username: accounts.username })
    .from(accountGroupMembers)
    .innerJoin(accounts, eq(accounts.id, accountGroupMembers.accountId))
    .where(and(eq(accountGroupMembers.workspaceId, workspaceId), eq(accountGroupMembers.groupId, groupId)))
}

/**
 * The ids of the posts of the workspace with at least one target on one of `accountIds`, in one of
 * `statuses` (SCHEDULED only when its time is after `now`), soonest first (no time last).
 */
export async function selectUpcomingPostIds(
  db: DbOrTx,
  workspaceId: string,
  query: { accountIds: string[]; statuses: readonly PostStatus[]; now: Date; limit: number },
): Promise<string[]> {
  if (query.accountIds.length === 0) return []
  const rows = await db
    .select({ id: posts.id, scheduledAt: posts.scheduledAt })
    .from(posts)
    .where(
      and(
        eq(posts.workspaceId, workspaceId),
        inArray(posts.status, [...query.statuses]),
        or(sql`${posts.status} <> 'SCHEDULED'`, gt(posts.scheduledAt, query.now)),
        inArray(
          posts.id,
          db
            .select({ id: targets.postId })
            .from(targets)
            .where(and(eq(targets.workspaceId, workspaceId), inArray(targets.accountId, query.accountIds))),
        ),
      ),
    )
    .orderBy(sql`${posts.scheduledAt} asc nulls last`, asc(posts.id))
    .limit(query.limit)
  return rows.map((r) => r.id)
}

/** The workspace's posts among `ids`, with their targets. */
export async function selectPostsWithTargets(db: DbOrTx, workspaceId: string, ids: string[]) {
  if (ids.length === 0) return { rows: [], postTargets: [] }
  const rows = await db
    .select()
    .from(posts)
    .where(and(eq(posts.workspaceId, workspaceId), inArray(posts.id, ids)))
  const postTargets = await db.select().from(targets).where(inArray(targets.postId, ids)).orderBy(asc(targets.position))
  return { rows, postTargets }
}

/** The workspace's account groups (what a link may be made for), by name. */
export function selectWorkspaceGroups(db: DbOrTx, workspaceId: string) {
  return db
    .select({ id: accountGroups.id, name: accountGroups.name })
    .from(accountGroups)
    .where(eq(accountGroups.workspaceId, workspaceId))
    .orderBy(sql`lower(${accountGroups.name})`, asc(accountGroups.id))
}
