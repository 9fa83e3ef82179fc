/** Posts and their targets as the API writes and reads them (the engine's are in publishing-posts.ts and targets.ts). */
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, notInArray, or, type SQL, sql } from 'drizzle-orm'
import type { PlatformId, PostStatus, PostType } from '../../domain/vocabulary'
import { insertFromArrays, insertFromArraysStatement, rowAsInserted, rowsAsInserted } from '../array-rows'
import { accounts, posts, targets } from '../schema'
import { executePrepared } from '../prepared'
import { selectTableRows } from '../table-rows'
import type { DbOrTx, Tx } from '../types'
import { type IdempotencyKeyRecord, insertRecordUnlessTakenStatement } from './idempotency'
import { postScopeConditions, type ScopeFilter } from './scope'

export type PostRow = typeof posts.$inferSelect
export type NewPostRow = typeof posts.$inferInsert
export type TargetRow = typeof targets.$inferSelect
export type NewTargetRow = typeof targets.$inferInsert

export type PostSort = 'createdAt' | '-createdAt' | 'scheduledAt' | '-scheduledAt' | 'publishedAt' | '-publishedAt'

export interface PostFilter extends ScopeFilter {
  status?: PostStatus | undefined
  platform?: PlatformId | undefined
  type?: PostType | undefined
  q?: string | undefined
  /** `service`: written through this service; `external`: imported from a network. */
  source?: 'service' | 'external' | undefined
  /** Only posts whose time (published, else scheduled) falls in `[from, to)`. */
  between?: { from: Date; to: Date } | undefined
  sort: PostSort
}

/**
 * The workspace's accounts among `ids` (in no particular order): what a post may target. One array
 * parameter for the ids, so the statement is the same for any number of them and is kept prepared
 * on the embedded database (every create and edit of a post reads it).
 */
export function selectWorkspaceAccountsByIds(db: DbOrTx, workspaceId: string, ids: string[]) {
  return executePrepared(db, 'post_accounts_by_ids', selectAccountsByIds, { workspaceId, ids })
}

const selectAccountsByIds = (db: DbOrTx) =>
  db
    .select({
      id: accounts.id,
      platform: accounts.platform,
      connection: accounts.connection,
      status: accounts.status,
      statusMessage: accounts.statusMessage,
      tokenExpiresAt: accounts.tokenExpiresAt,
      captionMaxLength: accounts.captionMaxLength,
    })
    .from(accounts)
    .where(
      and(
        eq(accounts.workspaceId, sql.placeholder('workspaceId')),
        sql`${accounts.id} = any(${sql.placeholder('ids')}::text[])`,
      ),
    )

export async function findWorkspacePost(db: DbOrTx, workspaceId: string, postId: string): Promise<PostRow | null> {
  const [row] = await db
    .select()
    .from(posts)
    .where(and(eq(posts.id, postId), eq(posts.workspaceId, workspaceId)))
  return row ?? null
}

/** The post row under a row lock (FOR UPDATE) for the rest of the transaction. */
export async function lockWorkspacePost(tx: Tx, workspaceId: string, postId: string): Promise<PostRow | null> {
  const [row] = await tx
    .select()
    .from(posts)
    .where(and(eq(posts.id, postId), eq(posts.workspaceId, workspaceId)))
    .for('update')
  return row ?? null
}

export function selectPostTargets(db: DbOrTx, postId: string): Promise<TargetRow[]> {
  return selectTableRows(db, targets, sql`select * from targets where post_id = ${postId}`)
}

export function selectTargetsOfPosts(db: DbOrTx, postIds: string[]): Promise<TargetRow[]> {
  return db.select().from(targets).where(inArray(targets.postId, postIds))
}

/** True when a target of the post is publishing, published, or got anything onto its network. */
export async function hasTargetGoneOut(tx: DbOrTx, postId: string): Promise<boolean> {
  const [outside] = await tx
    .select({ id: targets.id })
    .from(targets)
    .where(
      and(
        eq(targets.postId, postId),
        or(
          inArray(targets.status, ['PUBLISHED', 'PUBLISHING']),
          isNotNull(targets.platformPostId),
          sql`${targets.progress} -> 'headId' is not null`,
        ),
      ),
    )
    .limit(1)
  return outside !== undefined
}

/** Inserts the post; answers the row as stored (defaults included), so nothing reads it back. */
export async function insertPost(tx: DbOrTx, values: NewPostRow): Promise<PostRow> {
  const [row] = await insertFromArrays(tx, posts, [values])
  return row!
}

/** Inserts the targets (one array per column); answers the rows as stored (in no promised order). */
export function insertTargets(tx: DbOrTx, values: NewTargetRow[]): Promise<TargetRow[]> {
  return insertFromArrays(tx, targets, values)
}

/** The rows a post and its targets are stored as, for the values `insertPostWithTargets` writes. */
export function postRowsAsInserted(post: NewPostRow, postTargets: NewTargetRow[]) {
  return { post: rowAsInserted(posts, post), targets: rowsAsInserted(targets, postTargets) }
}

/**
 * Inserts a post and its targets (at least one) in one statement, and with them `answer`, the
 * record of the Idempotency-Key the request came with: when that key is taken (by a record that
 * has not expired at `now`), nothing at all is written. Answers whether the rows were written.
 */
export async function insertPostWithTargets(
  tx: DbOrTx,
  post: NewPostRow,
  postTargets: NewTargetRow[],
  answer?: { record: IdempotencyKeyRecord; now: Date },
): Promise<boolean> {
  const unlessTaken = answer ? sql`exists (select 1 from k)` : undefined
  const key = answer ? sql`k as (${insertRecordUnlessTakenStatement(answer.record, answer.now)}), ` : sql``
  const result = await tx.execute(sql`with ${key}p as (${insertFromArraysStatement(posts, [post], unlessTaken)}),
    t as (${insertFromArraysStatement(targets, postTargets, unlessTaken)})
    select ${answer ? sql`(select count(*) from k)::int` : sql`1`} as written`)
  return (result as unknown as { rows: Array<{ written: number }> }).rows[0]?.written === 1
}

export async function updatePostRow(tx: DbOrTx, postId: string, values: Partial<NewPostRow>): Promise<void> {
  await tx.update(posts).set(values).where(eq(posts.id, postId))
}

/** Removes the post's targets on accounts not in `keep`. */
export async function deleteTargetsOutside(tx: DbOrTx, postId: string, keep: string[]): Promise<void> {
  await tx.delete(targets).where(and(eq(targets.postId, postId), notInArray(targets.accountId, keep)))
}

export async function updatePostTarget(
  tx: DbOrTx,
  postId: string,
  accountId: string,
  values: Partial<NewTargetRow>,
): Promise<void> {
  await tx
    .update(targets)
    .set(values)
    .where(and(eq(targets.postId, postId), eq(targets.accountId, accountId)))
}

/** Deletes the post (its targets go with it); false when the workspace has no such post. */
export async function deleteWorkspacePost(db: DbOrTx, workspaceId: string, postId: string): Promise<boolean> {
  const rows = await db
    .delete(posts)
    .where(and(eq(posts.id, postId), eq(posts.workspaceId, workspaceId)))
    .returning({ id: posts.id })
  return rows.length > 0
}

/** The queue slot occurrences from `from` on that the workspace's posts hold. */
export async function selectHeldQueueSlots(db: DbOrTx, workspaceId: string, from: Date): Promise<Date[]> {
  const rows = await db
    .select({ at: posts.queueSlotAt })
    .from(posts)
    .where(and(eq(posts.workspaceId, workspaceId), isNotNull(posts.queueSlotAt), gte(posts.queueSlotAt, from)))
  return rows.map((r) => r.at!)
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

function whereOf(workspaceId: string, f: PostFilter): SQL {
  const conditions: SQL[] = [eq(posts.workspaceId, workspaceId)]
  if (f.status) conditions.push(eq(posts.status, f.status))
  if (f.type) conditions.push(eq(posts.type, f.type))
  if (f.source) conditions.push(eq(posts.source, f.source))
  if (f.q) conditions.push(ilike(posts.caption, `%${escapeLike(f.q)}%`))
  if (f.between) {
    const at = sql`coalesce(${posts.publishedAt}, ${posts.scheduledAt})`
    conditions.push(
      sql`${at} >= ${f.between.from.toISOString()}::timestamptz and ${at} < ${f.between.to.toISOString()}::timestamptz`,
    )
  }
  if (f.platform) {
    conditions.push(sql`exists (select 1 from targets t where t.post_id = "posts"."id" and t.platform = ${f.platform})`)
  }
  conditions.push(...postScopeConditions(sql`"posts"."id"`, f))
  return and(...conditions)!
}

const SORT_COLUMNS = { createdAt: posts.createdAt, scheduledAt: posts.scheduledAt, publishedAt: posts.publishedAt }

/** A field name orders latest first; a leading `-` reverses it. Posts without that time come last. */
function orderOf(sort: PostSort): SQL[] {
  const ascending = sort.startsWith('-')
  const column = SORT_COLUMNS[sort.replace('-', '') as keyof typeof SORT_COLUMNS]
  const dir = ascending ? asc : desc
  return [sql`${dir(column)} nulls last`, dir(posts.id)]
}

export function selectPosts(
  db: DbOrTx,
  workspaceId: string,
  filter: PostFilter,
  window: { limit: number; offset?: number },
): Promise<PostRow[]> {
  const query = db
    .select()
    .from(posts)
    .where(whereOf(workspaceId, filter))
    .orderBy(...orderOf(filter.sort))
    .limit(window.limit)
  return window.offset === undefined ? query : query.offset(window.offset)
}

export async function countPosts(db: DbOrTx, workspaceId: string, filter: PostFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(posts).where(whereOf(workspaceId, filter))
  return row?.n ?? 0
}
