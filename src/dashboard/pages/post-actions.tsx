/**
 * The buttons at the top of the post page, for the member's role and the post's state: Edit,
 * Publish now (where approval is required, only once approved) and Retry failed targets.
 */
import { can } from '../../domain/access'
import type { PostRecord } from '../../services/posts/record'
import { workspacePage } from '../env'
import { CsrfField, frame, type PageContext } from './shared'

const EDITABLE = new Set(['DRAFT', 'SCHEDULED', 'IN_REVIEW', 'APPROVED', 'CHANGES_REQUESTED'])
/** Where approval is required, a post goes out only once approved (the server refuses anyway). */
const publishable = (post: PostRecord) =>
  (post.status === 'DRAFT' || post.status === 'SCHEDULED') && !post.approvalRequired ? true : post.status === 'APPROVED'

export function PostActions({ c, post }: { c: PageContext; post: PostRecord }) {
  const { member, csrfToken } = frame(c)
  const url = (path = '') => workspacePage(member, `/posts/${post.id}${path}`)
  const failed = can(member.role, 'publish') ? post.targets.filter((t) => t.status === 'FAILED').length : 0
  const editable = can(member.role, 'write') && EDITABLE.has(post.status)
  if (post.source === 'external' || (!editable && failed < 2)) return null
  return (
    <div class="actions post-actions">
      {editable ? (
        <a class="btn btn-secondary" href={url('/edit')}>
          Edit
        </a>
      ) : null}
      {can(member.role, 'publish') && publishable(post) ? (
        <form method="post" action={url('/publish')}>
          <CsrfField token={csrfToken} />
          <button type="submit">Publish now</button>
        </form>
      ) : null}
      {failed > 1 ? (
        <form method="post" action={url('/retry')}>
          <CsrfField token={csrfToken} />
          <button type="submit">Retry failed targets</button>
        </form>
      ) : null}
    </div>
  )
}
