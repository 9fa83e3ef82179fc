/**
 * The review queue (`/review`): the posts waiting for a reviewer, oldest first, each with
 * who asked and when, what happens once approved and a link to its page (where the decision is
 * taken); tabs for the posts sent back with changes and the ones approved, newest first. A reviewer sees only the
 * posts of their groups (the service's visibility).
 */
import type { Hono } from 'hono'
import { can } from '../../domain/access'
import type { PlatformId } from '../../domain/vocabulary'
import { listPosts } from '../../services/posts/read'
import type { PostRecord } from '../../services/posts/record'
import { type DashboardEnv, type DashboardMember, workspacePage } from '../env'
import { Layout } from '../layout'
import { EmptyState, PageHeader } from '../ui'
import { excerpt, NetworkMarks } from './calendar-post'
import { intentText } from './post-approval'
import { frame, Notice, StatusBadge, ZonedTime } from './shared'

const TABS = [
  ['IN_REVIEW', 'Waiting for review'],
  ['CHANGES_REQUESTED', 'Changes requested'],
  ['APPROVED', 'Approved'],
] as const
type ReviewState = (typeof TABS)[number][0]

const stateOf = (asked: string | undefined): ReviewState => TABS.find(([s]) => s === asked)?.[0] ?? 'IN_REVIEW'

function ReviewItem({ post, member }: { post: PostRecord; member: DashboardMember }) {
  const approval = post.approval
  return (
    <li class="review-item">
      <a class="review-link" href={workspacePage(member, `/posts/${post.id}`)}>
        <span class="review-caption">{excerpt(post.caption, 140)}</span>
      </a>
      <span class="review-meta">
        <NetworkMarks platforms={post.targets.map((t) => t.platform as PlatformId)} />
        <StatusBadge status={post.status} />
      </span>
      {approval ? (
        <p class="review-who">
          {approval.submittedBy.name} asked <ZonedTime at={approval.submittedAt} timeZone={member.timeZone} />.{' '}
          {intentText(approval.intent, member.timeZone)}
        </p>
      ) : null}
      {approval?.comment ? <p class="review-comment">“{approval.comment}”</p> : null}
    </li>
  )
}

export function registerReview(app: Hono<DashboardEnv>): void {
  app.get('/review', async (c) => {
    const { member, csrfToken } = frame(c)
    const state = stateOf(c.req.query('state'))
    const posts = await listPosts(
      c.var.deps.db,
      member.workspaceId,
      // Waiting posts oldest first (the longest wait on top); the decided ones newest first.
      { status: state, sort: state === 'IN_REVIEW' ? '-createdAt' : 'createdAt', visibleGroupIds: member.groupIds },
      100,
    )
    const reviews = can(member.role, 'review')
    return c.html(
      <Layout title="Review" member={member} csrfToken={csrfToken} current="review">
        <PageHeader
          title="Review"
          description={
            reviews
              ? 'Posts your team asked you to look at. Open one to approve it or say what should change.'
              : 'Posts waiting for a reviewer, and the ones sent back to you with changes.'
          }
        />
        <Notice c={c} />
        <nav class="cal-tabs review-tabs" aria-label="Posts by review state">
          {TABS.map(([s, label]) => (
            <a href={workspacePage(member, `/review?state=${s}`)} aria-current={s === state ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        {posts.length === 0 ? (
          <EmptyState title="Nothing here">
            {state === 'IN_REVIEW' ? 'No post is waiting for review.' : 'No post is in this state.'}
          </EmptyState>
        ) : (
          <ol class="review-list">
            {posts.map((post) => (
              <ReviewItem post={post} member={member} />
            ))}
          </ol>
        )}
      </Layout>,
    )
  })
}
