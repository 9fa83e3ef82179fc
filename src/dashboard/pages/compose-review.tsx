/**
 * The composer's labels and actions. Labels: the workspace's labels as chips to tick, and a box to
 * create one by name (for a role that may). Actions: draft / schedule / queue / now; where approval
 * is required (the workspace, or a group of a chosen account), the primary button is "Submit for
 * review" with what to do once approved (schedule at the time above, queue, publish now) and a line
 * saying why.
 */
import type { ComposeValues } from './compose-form'

export interface LabelOption {
  id: string
  name: string
  color: string
}

/** What the composer knows about review for this post. */
export interface ComposeReview {
  /** Why a reviewer must approve it (null: no approval needed, the usual buttons). */
  requiredBecause: string | null
  /** What "Once approved" starts at: the action the last review round asked for, else schedule. */
  action: 'schedule' | 'queue' | 'now'
}

/**
 * A label's colour as a dot: an SVG fill attribute (the CSP allows no inline style), only a
 * `#rrggbb` colour, else the muted one.
 */
export const LabelDot = ({ color }: { color: string }) => (
  <svg class="label-dot" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
    <circle cx="5" cy="5" r="5" fill={/^#[0-9a-f]{6}$/i.test(color) ? color : '#64748b'} />
  </svg>
)

export function LabelPicker(p: { labels: LabelOption[]; values: ComposeValues; canCreate: boolean }) {
  if (p.labels.length === 0 && !p.canCreate) return null
  return (
    <fieldset class="composer-section label-picker">
      <legend>Labels</legend>
      {p.labels.length === 0 ? <p class="hint">No labels yet: name one below to tag this post.</p> : null}
      <ul class="chips">
        {p.labels.map((l) => (
          <li>
            <label class="chip label-chip">
              <input type="checkbox" name="labelIds" value={l.id} checked={p.values.labelIds.includes(l.id)} />
              <LabelDot color={l.color} />
              {l.name}
            </label>
          </li>
        ))}
      </ul>
      {p.canCreate ? (
        <div class="label-new">
          <label for="newLabel">New label</label>
          <input
            type="text"
            id="newLabel"
            name="newLabel"
            value={p.values.newLabel}
            maxLength={60}
            placeholder="e.g. Spring campaign"
            aria-describedby="newLabel-hint"
          />
          <p class="hint" id="newLabel-hint">
            Created and added when the post is saved.
          </p>
        </div>
      ) : null}
    </fieldset>
  )
}

/** The buttons at the foot of the form. */
export function ComposeActions(p: { review: ComposeReview }) {
  const why = p.review.requiredBecause
  if (!why)
    return (
      <div class="composer-actions">
        <button type="submit" name="action" value="draft" class="secondary">
          Save as draft
        </button>
        <button type="submit" name="action" value="schedule">
          Schedule
        </button>
        <button type="submit" name="action" value="queue" class="secondary">
          Add to queue
        </button>
        <button type="submit" name="action" value="now" class="secondary">
          Publish now
        </button>
        <p class="autosave-status hint" id="autosave-status" role="status"></p>
      </div>
    )
  return (
    <div class="composer-actions composer-actions-review">
      <p class="review-why" id="review-why">
        <strong>Needs approval.</strong> {why}
      </p>
      <div class="review-intent">
        <label for="reviewAction">Once approved</label>
        <select id="reviewAction" name="reviewAction" aria-describedby="review-why">
          <option value="schedule" selected={p.review.action === 'schedule'}>
            Schedule at the time above
          </option>
          <option value="queue" selected={p.review.action === 'queue'}>
            Add to the queue
          </option>
          <option value="now" selected={p.review.action === 'now'}>
            Publish right away
          </option>
        </select>
      </div>
      <button type="submit" name="action" value="draft" class="secondary">
        Save as draft
      </button>
      <button type="submit" name="action" value="review" aria-describedby="review-why">
        Submit for review
      </button>
      <p class="autosave-status hint" id="autosave-status" role="status"></p>
    </div>
  )
}
