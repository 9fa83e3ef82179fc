import {
  countPosts,
  findWorkspacePost,
  type PostFilter,
  type PostRow,
  selectPostTargets,
  selectPosts,
  selectTargetsOfPosts,
} from '../../db/queries/posts'
import type { DbOrTx } from '../../db/types'
import type { ScopeFilter } from '../../db/queries/scope'
import { notFound } from '../../domain/errors'
import { approvalScopeOf, requiresApproval } from './approval-gate'
import { toPostRecord, type PostRecord } from './record'
import { labelsOfPosts } from '../labels/labels'

export type { PostSort } from '../../db/queries/posts'
export type ListPostsFilter = PostFilter

export async function getPost(db: DbOrTx, workspaceId: string, postId: string): Promise<PostRecord> {
  const row = await findWorkspacePost(db, workspaceId, postId)
  if (!row) throw notFound('Post')
  const [postTargets, labels] = await Promise.all([selectPostTargets(db, postId), labelsOfPosts(db, [postId])])
  const scope = await approvalScopeOf(db, workspaceId)
  return toPostRecord(
    row,
    postTargets,
    requiresApproval(
      scope,
      postTargets.map((t) => t.accountId),
    ),
    labels.get(postId) ?? [],
  )
}

/** Without `page`, the plain array holds at most this many posts; a page answer says how many match. */
export const UNPAGED_MAX = 1000
export const DEFAULT_PAGE_SIZE = 20

async function withTargets(db: DbOrTx, rows: PostRow[]): Promise<PostRecord[]> {
  if (rows.length === 0) return []
  const ids = rows.map((r) => r.id)
  const [all, labels] = await Promise.all([selectTargetsOfPosts(db, ids), labelsOfPosts(db, ids)])
  const scope = await approvalScopeOf(db, rows[0]!.workspaceId)
  const byPost = new Map<string, (typeof all)[number][]>()
  for (const t of all) byPost.set(t.postId, [...(byPost.get(t.postId) ?? []), t])
  return rows.map((r) => {
    const postTargets = byPost.get(r.id) ?? []
    const approvalRequired = requiresApproval(
      scope,
      postTargets.map((t) => t.accountId),
    )
    return toPostRecord(r, postTargets, approvalRequired, labels.get(r.id) ?? [])
  })
}

/** Plain list: the first `limit` matching posts (at most UNPAGED_MAX), in two queries whatever their number. */
export async function listPosts(
  db: DbOrTx,
  workspaceId: string,
  filter: ListPostsFilter,
  limit: number = UNPAGED_MAX,
): Promise<PostRecord[]> {
  const bounded = Math.min(Math.max(1, limit), UNPAGED_MAX)
  return withTargets(db, await selectPosts(db, workspaceId, filter, { limit: bounded }))
}

/** The posts whose time (published, else scheduled) falls in `[from, to)`, earliest first (a calendar's range). */
export function listPostsBetween(
  db: DbOrTx,
  workspaceId: string,
  from: Date,
  to: Date,
  scope: ScopeFilter = {},
): Promise<PostRecord[]> {
  return listPosts(db, workspaceId, { ...scope, between: { from, to }, sort: '-scheduledAt' })
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
  const [rows, total] = await Promise.all([
    selectPosts(db, workspaceId, filter, { limit, offset: (page - 1) * limit }),
    countPosts(db, workspaceId, filter),
  ])
  return { data: await withTargets(db, rows), page, limit, total, hasMore: page * limit < total }
}
