/**
 * Deleting the service's copy of a post (DELETE /posts/{id}, the dashboard's delete); removing what
 * was published from the networks is ./delete-from-networks.ts.
 */
import { deleteWorkspacePost, lockWorkspacePost } from '../../db/queries/posts'
import { notFound } from '../../domain/errors'
import { recordPostAction } from '../activity/posts'
import { callerOfScope, type WorkspaceScope } from '../activity/scope'
import { newOutbox, sendOutbox } from '../webhooks/outbox'
import { recordPostDeleted } from '../webhooks/publish-events'
import { assertServicePost } from './external'
import { getPost } from './read'
import type { PostWriteDeps } from './types'

/**
 * Removes the service's copy (its targets with it); what was published on a network stays there.
 * A delivery still on its way finds no target to claim and does nothing. `post.deleted` (with the
 * post as it was) is recorded in the same transaction.
 */
export async function deletePost(
  deps: PostWriteDeps,
  scope: WorkspaceScope,
  postId: string,
): Promise<{ id: string; deleted: true }> {
  const caller = callerOfScope(scope)
  const { workspaceId } = caller
  const outbox = newOutbox()
  await deps.db.transaction(async (tx) => {
    // The post first, then its targets: the lock order of the engine.
    const locked = await lockWorkspacePost(tx, workspaceId, postId)
    if (!locked) throw notFound('Post')
    assertServicePost(locked)
    const record = await getPost(tx, workspaceId, postId)
    if (!(await deleteWorkspacePost(tx, workspaceId, postId))) throw notFound('Post')
    const now = deps.clock.now()
    await recordPostDeleted(tx, outbox, workspaceId, record, now)
    await recordPostAction(tx, caller, {
      postId,
      action: 'post.deleted',
      words: `deleted post ${postId}`,
      details: { status: record.status, accountIds: record.accountIds },
      now,
    })
  })
  await sendOutbox(deps, outbox)
  return { id: postId, deleted: true }
}
