/**
 * The composer's time: a wall-clock time in the workspace zone, the queue's next free slot (the
 * queue slots service, what "Add to queue" would take) and a hint from the best-times report.
 */
import type { BestTimesReport } from '../../services/analytics/best-times-stats'
import { FieldErrors } from './compose-fields'
import { toLocalInput } from './zoned-time'

export interface ScheduleHints {
  /** The next free queue slot as a datetime-local value, and how it reads. */
  nextFreeSlot: { value: string; label: string } | null
  /** One sentence from the best-times report (its best slot, or when it will have one). */
  bestTime: string
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const pad = (n: number) => String(n).padStart(2, '0')

/** How an instant reads in the zone: `Tue 2 Dec, 10:30`. */
export function slotLabel(instant: string, timeZone: string): string {
  const local = toLocalInput(instant, timeZone)
  const [y, m, d] = local.slice(0, 10).split('-').map(Number) as [number, number, number]
  const day = WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]!.slice(0, 3)
  const month = new Date(Date.UTC(y, m - 1, 1)).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })
  return `${day} ${d} ${month}, ${local.slice(11)}`
}

/** The hint a best-times report gives the composer. */
export function bestTimeHint(report: BestTimesReport): string {
  const best = report.slots[0]
  if (report.insufficient || !best) {
    return `Best times appear once ${report.minObservations} posts have been published and measured (${report.observations} so far).`
  }
  const at = `${pad(Math.floor(best.minutes / 60))}:${pad(best.minutes % 60)}`
  return `Your posts have done best on ${WEEKDAYS[best.weekday]}s around ${at} (from ${report.observations} posts).`
}

export function ScheduleField(p: {
  value: string
  timeZone: string
  hints: ScheduleHints
  errors: Record<string, string[]>
}) {
  const next = p.hints.nextFreeSlot
  return (
    <div class="composer-section field schedule-field">
      <label for="scheduledAt">Time for "Schedule" ({p.timeZone})</label>
      <div class="schedule-row">
        <input
          type="datetime-local"
          name="scheduledAt"
          id="scheduledAt"
          value={p.value}
          aria-describedby="schedule-hints errors-scheduledAt"
        />
        {next ? (
          <button type="button" class="secondary js-only" id="next-free-slot" data-slot={next.value}>
            Next free slot
          </button>
        ) : null}
      </div>
      <ul class="schedule-hints hint" id="schedule-hints">
        <li>
          {next
            ? `Next free queue slot: ${next.label} ("Add to queue" takes it).`
            : 'No free queue slot: set the weekly slots on the Queue page.'}
        </li>
        <li class="best-time">{p.hints.bestTime}</li>
      </ul>
      <FieldErrors field="scheduledAt" errors={p.errors} />
    </div>
  )
}
