/**
 * Posts imported from a network (`source: external`, written by the inbox sync) are read-only
 * here: they were published outside this service, so editing, scheduling, publishing, retrying
 * or deleting them through it is refused in words (409), before anything else is looked at.
 */
import { AppError } from '../../domain/errors'

export function assertServicePost(post: { source: string }): void {
  if (post.source !== 'external') return
  throw new AppError(
    'post_not_editable',
    'This post was published on the network outside this service and imported from it (source: external): it is read-only here. Edit or delete it on the network itself; its figures and comments stay readable.',
  )
}
