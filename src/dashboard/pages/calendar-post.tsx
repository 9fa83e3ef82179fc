/**
 * One post on the calendar (week slot, month day, list row): its time in the workspace zone, the
 * caption's first words, a mark per network, its status as a colour and a word. A post that can be
 * moved carries what the drag-and-drop script needs (`data-post`, `data-time`, `data-reschedule`)
 * and its time form (the keyboard way); a post with a failed target carries its retry button.
 */
import { can } from '../../domain/access'
import type { PlatformId } from '../../domain/vocabulary'
import type { CalendarPostRow } from '../../services/posts/calendar'
import { type DashboardMember, workspacePage } from '../env'
import { NetworkMark } from '../ui'
import { STATUS_LABELS } from './post-wording'
import { CsrfField } from './shared'

const RESCHEDULABLE = new Set(['DRAFT', 'SCHEDULED', 'FAILED'])

/** The caption's first words, at most `max` characters. */
export const excerpt = (text: string | null, max = 60) => {
  const t = (text ?? '').replace(/\s+/g, ' ').trim()
  return t.length > max ? `${t.slice(0, max - 1)}…` : t || '(no caption)'
}

export const NetworkMarks = ({ platforms }: { platforms: PlatformId[] }) => (
  <span class="cal-nets">
    {[...new Set(platforms)].map((p) => (
      <NetworkMark platform={p} size="small" labelled />
    ))}
  </span>
)

export interface CalendarPostProps {
  post: CalendarPostRow
  member: DashboardMember
  csrfToken: string
  /** The page to come back to after a form (this calendar, its filters kept). */
  here: string
  /** `chip`: one line (month); `card`: two lines (week slot, list). */
  size: 'chip' | 'card'
}

/**
 * The retry button of a post with a failed target and, on a card (week, list), its time form: the
 * keyboard way to move it (a month chip leaves it to the day's list, where "+N more" leads).
 */
function PostActions({ post, member, csrfToken, here, size }: CalendarPostProps) {
  const publishes = can(member.role, 'publish')
  const movable = size === 'card' && publishes && RESCHEDULABLE.has(post.status) && post.scheduledAt !== null
  const inputId = `at-${post.id}`
  return (
    <>
      {publishes && post.failedTargets > 0 ? (
        <form class="cal-retry" method="post" action={workspacePage(member, `/calendar/posts/${post.id}/retry`)}>
          <CsrfField token={csrfToken} />
          <input type="hidden" name="back" value={here} />
          <button type="submit" class="cal-retry-button">
            Retry<span class="visually-hidden"> failed targets of “{excerpt(post.caption, 30)}”</span>
          </button>
        </form>
      ) : null}
      {movable ? (
        <details class="cal-move">
          <summary>
            Move<span class="visually-hidden"> “{excerpt(post.caption, 30)}”</span>
          </summary>
          <form method="post" action={workspacePage(member, `/posts/${post.id}/reschedule`)}>
            <CsrfField token={csrfToken} />
            <input type="hidden" name="back" value={here} />
            <label for={inputId}>New time ({member.timeZone})</label>
            <input type="datetime-local" id={inputId} name="scheduledAt" value={post.local} required />
            <button type="submit">Move</button>
          </form>
        </details>
      ) : null}
    </>
  )
}

/** A status as a person reads it ("Changes requested"), the API's word when it is not one we know. */
const statusWord = (status: string) => STATUS_LABELS[status] ?? status

export function CalendarPost(props: CalendarPostProps) {
  const { post, member, size } = props
  const movable = can(member.role, 'publish') && RESCHEDULABLE.has(post.status) && post.scheduledAt !== null
  const failed = post.failedTargets > 0 || post.status === 'FAILED'
  return (
    <li
      class={`cal-post cal-post--${size} status-${post.status.toLowerCase()}${failed ? ' has-failed' : ''}`}
      id={`post-${post.id}`}
      draggable={movable ? 'true' : undefined}
      data-post={movable ? post.id : undefined}
      data-time={post.local.slice(11)}
      data-reschedule={movable ? workspacePage(member, `/posts/${post.id}/reschedule`) : undefined}
    >
      <a class="cal-post-link" href={workspacePage(member, `/posts/${post.id}`)}>
        <time datetime={post.at.toISOString()}>{post.local.slice(11)}</time>{' '}
        <span class="cal-post-text">{excerpt(post.caption, size === 'chip' ? 40 : 80)}</span>
      </a>
      <span class="cal-post-meta">
        <NetworkMarks platforms={post.platforms} />
        <span class={`cal-status status-${post.status.toLowerCase()}`}>
          {failed && post.status !== 'FAILED'
            ? `${statusWord(post.status)}, ${post.failedTargets} failed`
            : statusWord(post.status)}
        </span>
      </span>
      <PostActions {...props} />
    </li>
  )
}
