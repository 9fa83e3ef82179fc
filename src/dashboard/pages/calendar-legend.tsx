/**
 * The calendar's key: each post status as the colour its chips carry and the word it stands for,
 * so the colours (and the review states in particular) read the same in both themes.
 */
import { STATUS_LABELS } from './post-wording'

/** The statuses a calendar shows, in the order a post moves through them. */
export const LEGEND_STATUSES = [
  'DRAFT',
  'IN_REVIEW',
  'CHANGES_REQUESTED',
  'APPROVED',
  'SCHEDULED',
  'PUBLISHING',
  'PUBLISHED',
  'FAILED',
] as const

export function CalendarLegend() {
  return (
    <ul class="cal-legend" aria-label="Status colours">
      {LEGEND_STATUSES.map((s) => (
        <li class={`cal-legend-item status-${s.toLowerCase()}`}>{STATUS_LABELS[s]}</li>
      ))}
    </ul>
  )
}
