/**
 * A comment's actions, the same on the inbox and the post page: the reply box with the network's
 * counter (the caption's counting, `countText`; `inbox.js` keeps it live), hide or unhide, like,
 * delete behind a confirmation (a disclosure: no script needed), read or unread. Only what the
 * network allows (the registry's `inbox`) is offered. Each form posts to `/inbox/{id}/{action}` with
 * the page to come back to.
 */
import { countText } from '../../../domain/text-count'
import { CsrfField } from '../shared'
import { networkName } from '../../ui'
import { type InboxComment, inboxRules, replyBudget } from './data'

export interface ActionsProps {
  comment: InboxComment
  csrfToken: string
  /** `/app/w/{id}/inbox/{commentId}` plus the action. */
  actionUrl(action: string): string
  /** The page the member comes back to after the action (a path of this workspace). */
  returnTo: string
  /** Smaller controls (the post page's threads). */
  compact?: boolean
}

const Hidden = ({ p }: { p: ActionsProps }) => (
  <>
    <CsrfField token={p.csrfToken} />
    <input type="hidden" name="return" value={p.returnTo} />
  </>
)

/** The reply box: a textarea, its counter `n / max` (over: marked and announced), and the submit. */
export function ReplyForm({ p }: { p: ActionsProps }) {
  const { comment } = p
  const budget = replyBudget(comment.platform)
  const id = `reply-${comment.id}`
  return (
    <form method="post" action={p.actionUrl('reply')} class="inbox-reply" data-reply-form>
      <Hidden p={p} />
      <input type="hidden" name="idempotencyKey" value={crypto.randomUUID()} />
      <label for={id} class={p.compact ? 'visually-hidden' : 'inbox-reply-label'}>
        Reply on {networkName(comment.platform)}
      </label>
      <textarea
        id={id}
        name="text"
        rows={p.compact ? 2 : 3}
        required
        aria-describedby={`${id}-count`}
        data-count-rule={JSON.stringify(budget.rule)}
        data-count-max={String(budget.max)}
        placeholder={`Reply to ${comment.author.name}`}
      />
      <div class="inbox-reply-bar">
        <output id={`${id}-count`} class="inbox-counter" for={id} aria-live="polite" data-counter>
          {countText('', budget.rule)} / {budget.max}
        </output>
        <button type="submit" class={p.compact ? 'btn btn-secondary' : 'btn'}>
          Send reply
        </button>
      </div>
    </form>
  )
}

function ActionButton({
  p,
  action,
  label,
  variant,
}: {
  p: ActionsProps
  action: string
  label: string
  variant?: string
}) {
  return (
    <form method="post" action={p.actionUrl(action)}>
      <Hidden p={p} />
      <button type="submit" class={`btn ${variant ?? 'btn-secondary'}`}>
        {label}
      </button>
    </form>
  )
}

/** Delete, behind a disclosure that says what it does and asks again. */
function DeleteConfirm({ p }: { p: ActionsProps }) {
  return (
    <details class="inbox-delete">
      <summary class="btn btn-ghost">Delete…</summary>
      <form method="post" action={p.actionUrl('delete')} class="inbox-delete-panel" data-confirm-delete>
        <Hidden p={p} />
        <p>This deletes the comment on {networkName(p.comment.platform)} for everyone. It cannot be undone.</p>
        <button type="submit" class="btn btn-danger">
          Delete comment
        </button>
      </form>
    </details>
  )
}

/** The buttons the network allows for this comment; none for a comment the network no longer has. */
export function CommentButtons({ p }: { p: ActionsProps }) {
  const { comment } = p
  const rules = inboxRules(comment.platform)
  if (comment.gone) return null
  const hidden = comment.state === 'hidden'
  return (
    <div class="inbox-actions">
      {rules.like && !comment.fromAccount ? (
        comment.liked ? (
          <span class="inbox-liked">Liked</span>
        ) : (
          <ActionButton p={p} action="like" label="Like" />
        )
      ) : null}
      {rules.hide && !comment.fromAccount ? (
        <ActionButton p={p} action={hidden ? 'unhide' : 'hide'} label={hidden ? 'Unhide' : 'Hide'} />
      ) : null}
      {comment.state !== 'unread' && !p.compact ? <ActionButton p={p} action="unread" label="Mark unread" /> : null}
      {rules.delete ? <DeleteConfirm p={p} /> : null}
    </div>
  )
}

/** What the network allows here, in words, when it allows less than everything. */
export function AllowedNote({ comment }: { comment: InboxComment }) {
  const r = inboxRules(comment.platform)
  const missing = [
    r.reply ? null : 'reply',
    r.hide ? null : 'hide',
    r.like ? null : 'like',
    r.delete ? null : 'delete',
  ].filter(Boolean)
  if (missing.length === 0) return null
  return (
    <p class="inbox-allowed muted">
      {networkName(comment.platform)} does not let apps {missing.join(', ')} here.
    </p>
  )
}
