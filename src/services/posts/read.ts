import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm'
import { posts, targets } from '../../db/schema'
import type { DbOrTx } from '../../db/types'
import { notFound } from '../../domain/errors'
import type { PlatformId, PostStatus, PostType } from '../../domain/vocabulary'
import { toPostRecord, type PostRecord, type PostRow } from './record'

export async function getPost(db: DbOrTx, workspaceId: string, postId: string): Promise<PostRecord> {
  const [row] = await db
    .select()
    .from(posts)
    .where(and(eq(posts.id, postId), eq(posts.workspaceId, workspaceId)))
  if (!row) throw notFound('Post')
  const rows = await db.select().from(targets).where(eq(targets.postId, postId))
  return toPostRecord(row, rows)
}

export type PostSort = 'createdAt' | '-createdAt' | 'scheduledAt' | '-scheduledAt' | 'publishedAt' | '-publishedAt'

export interface ListPostsFilter {
  status?: PostStatus | undefined
  platform?: PlatformId | undefined
  type?: PostType | undefined
  q?: string | undefined
  sort: PostSort
}

/** Without `page`, the plain array holds at most this many posts; a page answer says how many match. */
export const UNPAGED_MAX = 1000
export const DEFAULT_PAGE_SIZE = 20

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

function whereOf(workspaceId: string, f: ListPostsFilter): SQL {
  const conditions: SQL[] = [eq(posts.workspaceId, workspaceId)]
  if (f.status) conditions.push(eq(posts.status, f.status))
  if (f.type) conditions.push(eq(posts.type, f.type))
  if (f.q) conditions.push(ilike(posts.caption, `%${escapeLike(f.q)}%`))
  if (f.platform) {
    conditions.push(sql`exists (select 1 from targets t where t.post_id = "posts"."id" and t.platform = ${f.platform})`)
  }
  return and(...conditions)!
}

function orderOf(sort: PostSort): SQL[] {
  const ascending = sort.startsWith('-')
  const column = { createdAt: posts.createdAt, scheduledAt: posts.scheduledAt, publishedAt: posts.publishedAt }[
    sort.replace('-', '') as 'createdAt'
  ]
  const dir = ascending ? asc : desc
  return [sql`${dir(column)} nulls last`, dir(posts.id)]
}

async function withTargets(db: DbOrTx, rows: PostRow[]): Promise<PostRecord[]> {
  if (rows.length === 0) return []
  const all = await db
    .select()
    .from(targets)
    .where(
      inArray(
        targets.postId,
        rows.map((r) => r.id),
      ),
    )
  const byPost = new Map<string, (typeof all)[number][]>()
  for (const t of all) byPost.set(t.postId, [...(byPost.get(t.postId) ?? []), t])
  return rows.map((r) => toPostRecord(r, byPost.get(r.id) ?? []))
}

/** Plain list: the matching posts (at most UNPAGED_MAX), in two queries whatever their number. */
export async function listPosts(db: DbOrTx, workspaceId: string, filter: ListPostsFilter): Promise<PostRecord[]> {
  const rows = await db
    .select()
    .from(posts)
    .where(whereOf(workspaceId, filter))
    .orderBy(...orderOf(filter.sort))
    .limit(UNPAGED_MAX)
  return withTargets(db, rows)
}

export interface PostPage {
  data: PostRecord[]
  page: number
  limit: number
  total: number
  hasMore: boolean
}

/** One page: three queries (page rows, their targets, the total) whatever the page size. */
export async function listPostPage(
  db: DbOrTx,
  workspaceId: string,
  filter: ListPostsFilter,
  page: number,
  limit: number,
): Promise<PostPage> {
  const where = whereOf(workspaceId, filter)
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(posts)
      .where(where)
      .orderBy(...orderOf(filter.sort))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(posts).where(where),
  ])
  const total = totals[0]?.n ?? 0
  return { data: await withTargets(db, rows), page, limit, total, hasMore: page * limit < total }
}
