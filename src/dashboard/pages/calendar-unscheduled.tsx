/**
 * Below the week and the month: the posts with no time on the grid yet (drafts, and the ones in
 * review or sent back), each with its status, so a post waiting for a decision is not lost.
 */
import type { PostStatus } from '../../domain/vocabulary'
import { listPosts } from '../../services/posts/read'
import type { PostRecord } from '../../services/posts/record'
import { type DashboardMember, workspacePage } from '../env'
import { excerpt } from './calendar-post'
import { StatusBadge } from '../ui'
import type { PageContext } from './shared'
import { STATUS_LABELS } from './post-wording'

const UNSCHEDULED: PostStatus[] = ['CHANGES_REQUESTED', 'IN_REVIEW', 'DRAFT']
const SHOWN = 10

/** The latest posts of each unscheduled status, those needing work first (at most ten). */
export async function loadUnscheduled(c: PageContext, member: DashboardMember): Promise<PostRecord[]> {
  const lists = await Promise.all(
    UNSCHEDULED.map((status) =>
      listPosts(
        c.var.deps.db,
        member.workspaceId,
        { status, sort: 'createdAt', visibleGroupIds: member.groupIds },
        SHOWN,
      ),
    ),
  )
  return lists.flat().slice(0, SHOWN)
}

export function UnscheduledPosts({ posts, member }: { posts: PostRecord[]; member: DashboardMember }) {
  if (posts.length === 0) return null
  return (
    <section class="cal-drafts" aria-labelledby="cal-drafts-title">
      <h2 id="cal-drafts-title">Not on the calendar yet</h2>
      <ul>
        {posts.map((d) => (
          <li>
            <a href={workspacePage(member, `/posts/${d.id}`)}>{excerpt(d.caption)}</a>
            {d.status === 'DRAFT' ? null : <StatusBadge status={d.status}>{STATUS_LABELS[d.status]}</StatusBadge>}
          </li>
        ))}
      </ul>
    </section>
  )
}
