import { lockWorkspacePost } from '../../db/queries/posts'
import { restartPublishing, startPublishingNow } from '../../db/queries/publishing-posts'
import { listFailedTargetIds, listPostTargets, restartOpenTargets, restartTargets } from '../../db/queries/targets'
import type { Deps } from '../../deps'
import { AppError, notFound } from '../../domain/errors'
import { assertGoOutGate } from '../posts/approval-gate'
import { assertValidContent, contentOf } from '../posts/content'
import { assertServicePost } from '../posts/external'
import { loadPostAccounts, loadPostMedia } from '../posts/load'
import { getPost } from '../posts/read'
import type { PostRecord } from '../posts/record'
import { dispatchPendingTargets } from './dispatch'

type ActionDeps = Pick<Deps, 'db' | 'clock' | 'publishQueue' | 'logger' | 'settings'>

/**
 * POST /posts/{id}/publish: publishing starts now, whatever the post was scheduled for. Targets
 * already published are left alone; a post that is publishing is answered as it is.
 */
export async function publishPostNow(deps: ActionDeps, workspaceId: string, postId: string): Promise<PostRecord> {
  const now = deps.clock.now()
  const started = await deps.db.transaction(async (tx) => {
    const row = await lockWorkspacePost(tx, workspaceId, postId)
    if (!row) throw notFound('Post')
    assertServicePost(row)
    if (row.status === 'PUBLISHING') return false
    if (row.status === 'PUBLISHED') throw new AppError('post_not_editable', 'The post is already published.')
    const current = await listPostTargets(tx, postId)
    const accountIds = [...current].sort((a, b) => a.position - b.position).map((t) => t.accountId)
    await assertGoOutGate(tx, row, accountIds, { what: 'published' })
    const accounts = await loadPostAccounts(tx, workspaceId, accountIds)
    const media = await loadPostMedia(tx, workspaceId, row.mediaIds)
    assertValidContent(contentOf(row), accounts, media, 'publish', now)
    await startPublishingNow(tx, postId, { version: row.version + 1, now })
    // A new round: the transient-retry budget counts from here.
    await restartOpenTargets(tx, postId, now)
    return true
  })
  if (started) await dispatchPendingTargets(deps, postId)
  return getPost(deps.db, workspaceId, postId)
}

/**
 * POST /posts/{id}/retry: only FAILED targets go again; published ones are never touched. With
 * `only` (the dashboard's retry of one target), only those of the failed targets.
 */
export async function retryFailedTargets(
  deps: ActionDeps,
  workspaceId: string,
  postId: string,
  options: { only?: string[] } = {},
): Promise<PostRecord> {
  const now = deps.clock.now()
  await deps.db.transaction(async (tx) => {
    const row = await lockWorkspacePost(tx, workspaceId, postId)
    if (!row) throw notFound('Post')
    assertServicePost(row)
    const failed = (await listFailedTargetIds(tx, postId)).filter((f) => !options.only || options.only.includes(f.id))
    if (failed.length === 0) throw new AppError('nothing_to_retry', 'The post has no failed target to retry.')
    await restartPublishing(tx, postId, { version: row.version + 1, now })
    // A new round for the failed targets: the transient-retry budget counts from here.
    await restartTargets(
      tx,
      failed.map((f) => f.id),
      now,
    )
  })
  // Every PENDING target of the post: the version changed, so siblings waiting on a backoff need new deliveries too.
  await dispatchPendingTargets(deps, postId)
  return getPost(deps.db, workspaceId, postId)
}
