import { and, eq, inArray, notInArray, sql } from 'drizzle-orm'
import { posts, targets } from '../../db/schema'
import type { Deps } from '../../deps'
import { AppError, notFound } from '../../domain/errors'
import { assertValidContent, contentOf } from '../posts/content'
import { loadPostAccounts, loadPostMedia } from '../posts/load'
import { getPost } from '../posts/read'
import type { PostRecord } from '../posts/record'
import { dispatchPendingTargets } from './dispatch'

type ActionDeps = Pick<Deps, 'db' | 'clock' | 'publishQueue' | 'logger'>

/**
 * POST /posts/{id}/publish: publishing starts now, whatever the post was scheduled for. Targets
 * already published are left alone; a post that is publishing is answered as it is.
 */
export async function publishPostNow(deps: ActionDeps, workspaceId: string, postId: string): Promise<PostRecord> {
  const now = deps.clock.now()
  const started = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(posts)
      .where(and(eq(posts.id, postId), eq(posts.workspaceId, workspaceId)))
      .for('update')
    if (!row) throw notFound('Post')
    if (row.status === 'PUBLISHING') return false
    if (row.status === 'PUBLISHED') throw new AppError('post_not_editable', 'The post is already published.')
    const current = await tx.select().from(targets).where(eq(targets.postId, postId))
    const accounts = await loadPostAccounts(
      tx,
      workspaceId,
      [...current].sort((a, b) => a.position - b.position).map((t) => t.accountId),
    )
    const media = await loadPostMedia(tx, workspaceId, row.mediaIds)
    assertValidContent(contentOf(row), accounts, media, 'publish', now)
    await tx
      .update(posts)
      .set({ status: 'PUBLISHING', scheduledAt: now, queueSlotAt: null, version: row.version + 1, updatedAt: now })
      .where(eq(posts.id, postId))
    await tx
      .update(targets)
      .set({ status: 'PENDING', dueAt: now, error: null, leaseUntil: null, progress: newRound, updatedAt: now })
      .where(and(eq(targets.postId, postId), notInArray(targets.status, ['PUBLISHED', 'PUBLISHING'])))
    return true
  })
  if (started) await dispatchPendingTargets(deps, postId)
  return getPost(deps.db, workspaceId, postId)
}

/** A manual publish or retry starts a new round: the transient-retry budget counts from here. */
const newRound = sql`coalesce(${targets.progress}, '{}'::jsonb) || jsonb_build_object('roundStart', ${targets.attempts})`

/** POST /posts/{id}/retry: only FAILED targets go again; published ones are never touched. */
export async function retryFailedTargets(deps: ActionDeps, workspaceId: string, postId: string): Promise<PostRecord> {
  const now = deps.clock.now()
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(posts)
      .where(and(eq(posts.id, postId), eq(posts.workspaceId, workspaceId)))
      .for('update')
    if (!row) throw notFound('Post')
    const failed = await tx
      .select({ id: targets.id })
      .from(targets)
      .where(and(eq(targets.postId, postId), eq(targets.status, 'FAILED')))
    if (failed.length === 0) throw new AppError('nothing_to_retry', 'The post has no failed target to retry.')
    await tx
      .update(posts)
      .set({ status: 'PUBLISHING', version: row.version + 1, updatedAt: now })
      .where(eq(posts.id, postId))
    await tx
      .update(targets)
      .set({ status: 'PENDING', dueAt: now, error: null, leaseUntil: null, progress: newRound, updatedAt: now })
      .where(
        inArray(
          targets.id,
          failed.map((f) => f.id),
        ),
      )
  })
  // Every PENDING target of the post: the version changed, so siblings waiting on a backoff need new deliveries too.
  await dispatchPendingTargets(deps, postId)
  return getPost(deps.db, workspaceId, postId)
}
