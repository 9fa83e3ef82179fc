/**
 * Hiding, deleting and liking a comment on its network (`/v1/inbox/comments/{id}/hide`, `/unhide`,
 * `DELETE`, `/like`): the network acts first, then the inbox notes it.
 */
import { deleteCommentTree, updateHiddenMark, updateLikedMark } from '../../db/queries/inbox-actions'
import { AppError } from '../../domain/errors'
import { type InboxDeps, onNetwork, prepareInboxCall } from './network-call'
import { toInboxCommentRecord, type InboxCommentRecord } from './record'

interface CommentTarget {
  workspaceId: string
  commentId: string
}

const gone = () => new AppError('not_found', 'Comment not found.')

/** Hides the comment from the post's public view on the network (hidden false: shows it again). */
export async function setCommentHidden(
  deps: InboxDeps,
  input: CommentTarget & { hidden: boolean },
): Promise<InboxCommentRecord> {
  const call = await prepareInboxCall(deps, { ...input, action: 'hide' })
  await onNetwork(deps, call, () => call.adapter.hideComment!({ ...call.input, hidden: input.hidden }))
  const row = await updateHiddenMark(deps.db, input.workspaceId, {
    id: input.commentId,
    hidden: input.hidden,
    now: deps.clock.now(),
  })
  if (!row) throw gone()
  return toInboxCommentRecord(row)
}

/** Deletes the comment on the network; the inbox drops it and the replies under it. */
export async function deleteInboxComment(
  deps: InboxDeps,
  input: CommentTarget,
): Promise<{ id: string; deleted: true }> {
  const call = await prepareInboxCall(deps, { ...input, action: 'delete' })
  await onNetwork(deps, call, () => call.adapter.deleteComment!(call.input))
  await deleteCommentTree(deps.db, input.workspaceId, input.commentId)
  return { id: input.commentId, deleted: true }
}

/** Likes the comment as the account. */
export async function likeInboxComment(deps: InboxDeps, input: CommentTarget): Promise<InboxCommentRecord> {
  const call = await prepareInboxCall(deps, { ...input, action: 'like' })
  await onNetwork(deps, call, () => call.adapter.likeComment!(call.input))
  const row = await updateLikedMark(deps.db, input.workspaceId, { id: input.commentId, now: deps.clock.now() })
  if (!row) throw gone()
  return toInboxCommentRecord(row)
}
