/**
 * The post page's approval panel: where the post stands in review (who submitted it and when, for
 * what action, who decided and what they said) and the buttons the member's role may use in that
 * state: Submit for review (with the action to take once approved), Approve, Request changes (a
 * comment is required). Each is a form posting to `/posts/{id}/submit|approve|request-changes`;
 * the routes check the role again and the services check the state and the version.
 */
import { can } from '../../domain/access'
import type { MemberRole } from '../../domain/people'
import { CsrfField, ZonedTime } from './shared'
import { zonedText } from './post-wording'
import { toLocalInput } from './zoned-time'

/** An approval as the page shows it (the post record's `approval`). */
export interface ApprovalView {
  state: 'IN_REVIEW' | 'APPROVED' | 'CHANGES_REQUESTED'
  submittedBy: { name: string }
  submittedAt: string
  intent: { action: 'schedule' | 'queue' | 'now'; scheduledAt: string | null } | null
  note: string | null
  decidedBy: { name: string } | null
  decidedAt: string | null
  comment: string | null
}

export interface ApprovalPanelProps {
  post: {
    id: string
    status: string
    version: number
    scheduledAt: string | null
    approval: ApprovalView | null
    approvalRequired: boolean
  }
  role: MemberRole
  timeZone: string
  csrfToken: string
  /** The address of a post action (`/posts/{id}<path>`). */
  url(path: string): string
  /** The scheduled time to offer, as a `datetime-local` value in the zone. */
  defaultLocal: string
}

const SUBMITTABLE = new Set(['DRAFT', 'CHANGES_REQUESTED'])

/** What happens once approved, as the submitter asked, in words. */
export function intentText(intent: ApprovalView['intent'], timeZone: string): string {
  if (!intent) return 'Stays approved, to be scheduled by hand.'
  if (intent.action === 'now') return 'Published right away.'
  if (intent.action === 'queue') return 'Takes the next free queue slot.'
  return intent.scheduledAt ? `Goes out ${zonedText(intent.scheduledAt, timeZone)}.` : 'Scheduled.'
}

const HEADINGS: Record<ApprovalView['state'], string> = {
  IN_REVIEW: 'Waiting for review',
  APPROVED: 'Approved',
  CHANGES_REQUESTED: 'Changes requested',
}

function ApprovalState({ approval, timeZone }: { approval: ApprovalView; timeZone: string }) {
  return (
    <>
      <dl class="approval-facts">
        <div>
          <dt>Submitted</dt>
          <dd>
            by {approval.submittedBy.name}, <ZonedTime at={approval.submittedAt} timeZone={timeZone} />
          </dd>
        </div>
        <div>
          <dt>Once approved</dt>
          <dd>{intentText(approval.intent, timeZone)}</dd>
        </div>
        {approval.decidedBy && approval.decidedAt ? (
          <div>
            <dt>{approval.state === 'APPROVED' ? 'Approved' : 'Sent back'}</dt>
            <dd>
              by {approval.decidedBy.name}, <ZonedTime at={approval.decidedAt} timeZone={timeZone} />
            </dd>
          </div>
        ) : null}
      </dl>
      {approval.note ? (
        <blockquote class="approval-note">
          <p class="approval-quote-who">{approval.submittedBy.name} wrote</p>
          <p>{approval.note}</p>
        </blockquote>
      ) : null}
      {approval.comment ? (
        <blockquote class="approval-comment">
          <p class="approval-quote-who">{approval.decidedBy?.name ?? 'The reviewer'} wrote</p>
          <p>{approval.comment}</p>
        </blockquote>
      ) : null}
    </>
  )
}

/**
 * Submit for review with the action to take once approved (the composer's three choices), set to
 * what was asked the last time (a post sent back keeps its action and time) or else to an hour from now.
 */
export function SubmitForm(props: ApprovalPanelProps) {
  const id = (name: string) => `submit-${name}`
  const asked = props.post.approval?.intent ?? null
  const action = asked?.action ?? 'schedule'
  const at = asked?.scheduledAt ?? props.post.scheduledAt
  const local = at ? toLocalInput(at, props.timeZone) : props.defaultLocal
  return (
    <form method="post" action={props.url('/submit')} class="approval-form">
      <CsrfField token={props.csrfToken} />
      <div class="approval-intent">
        <div>
          <label for={id('action')}>Once approved</label>
          <select id={id('action')} name="action">
            <option value="schedule" selected={action === 'schedule'}>
              Schedule at
            </option>
            <option value="queue" selected={action === 'queue'}>
              Add to the queue
            </option>
            <option value="now" selected={action === 'now'}>
              Publish right away
            </option>
          </select>
        </div>
        <div>
          <label for={id('at')}>Time ({props.timeZone})</label>
          <input type="datetime-local" id={id('at')} name="scheduledAt" value={local} />
        </div>
      </div>
      <label for={id('note')}>Note for the reviewer (optional)</label>
      <textarea id={id('note')} name="note" rows={2} maxLength={2000}></textarea>
      <button type="submit">Submit for review</button>
    </form>
  )
}

/** Approve, and Request changes with its comment (a disclosure, so it needs no script). */
function ReviewForms(props: ApprovalPanelProps) {
  const version = String(props.post.version)
  return (
    <div class="approval-decide">
      <form method="post" action={props.url('/approve')}>
        <CsrfField token={props.csrfToken} />
        <input type="hidden" name="version" value={version} />
        <button type="submit" class="button-approve">
          Approve
        </button>
      </form>
      <details class="approval-changes">
        <summary class="btn btn-secondary">Request changes</summary>
        <form method="post" action={props.url('/request-changes')} class="approval-form">
          <CsrfField token={props.csrfToken} />
          <input type="hidden" name="version" value={version} />
          <label for="changes-comment">What should change</label>
          <textarea
            id="changes-comment"
            name="comment"
            rows={3}
            required
            minLength={1}
            maxLength={2000}
            aria-describedby="changes-comment-hint"
          ></textarea>
          <p id="changes-comment-hint" class="hint">
            The author sees this beside the post.
          </p>
          <button type="submit">Send the request</button>
        </form>
      </details>
    </div>
  )
}

/** The panel; absent when there is nothing to show or do (a published post never reviewed). */
export function ApprovalPanel(props: ApprovalPanelProps) {
  const { post, role } = props
  const mayReview = can(role, 'review') && post.status === 'IN_REVIEW'
  const maySubmit = can(role, 'write') && SUBMITTABLE.has(post.status)
  if (!post.approval && !maySubmit) return null
  const state = post.approval?.state
  return (
    <section
      class={`post-section approval-panel${state ? ` approval-${state.toLowerCase()}` : ''}`}
      aria-labelledby="approval-title"
    >
      <h2 id="approval-title">{state ? HEADINGS[state] : 'Review'}</h2>
      {post.approval ? (
        <ApprovalState approval={post.approval} timeZone={props.timeZone} />
      ) : (
        <p class="approval-lead">
          {post.approvalRequired
            ? 'This workspace publishes a post only once a reviewer approves it.'
            : 'Ask a reviewer to look at this post before it goes out.'}
        </p>
      )}
      {mayReview ? <ReviewForms {...props} /> : null}
      {maySubmit && post.status === 'CHANGES_REQUESTED' ? (
        <>
          <a class="btn approval-edit" href={props.url('/edit')}>
            Edit the post
          </a>
          <details class="approval-resubmit">
            <summary>Submit it again as it is</summary>
            <SubmitForm {...props} />
          </details>
        </>
      ) : maySubmit ? (
        <SubmitForm {...props} />
      ) : null}
    </section>
  )
}
