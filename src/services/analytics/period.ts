/**
 * The period of `GET /v1/analytics`: calendar days of the workspace's time zone, `from` to `to`
 * inclusive. Without `to`: today; without `from`: `SERIES_DAYS` days ending with `to` (so with
 * neither, the last 30 days, the answer of old).
 */
import { TZDate } from '@date-fns/tz'
import { AppError } from '../../domain/errors'

export const SERIES_DAYS = 30
/** The longest period one answer covers, in days. */
export const MAX_PERIOD_DAYS = 366

export interface Period {
  /** The calendar days, oldest first. */
  days: string[]
  /** Where the first day starts. */
  from: Date
  /** Where the day after the last one starts. */
  until: Date
}

/** `YYYY-MM-DD` of `at` in `timezone`. */
export function localDay(at: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at)
}

const dayNumber = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return Date.UTC(y, m - 1, d) / 86_400_000
}
const dayOf = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10)

function startOf(day: string, timezone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return new Date(new TZDate(y, m - 1, d, 0, 0, timezone).getTime())
}

/**
 * The period asked for (days already shaped `YYYY-MM-DD` by the request schema). A `from` after
 * `to`, or a period longer than `MAX_PERIOD_DAYS`, is refused in words.
 */
export function periodOf(input: { from?: string; to?: string }, now: Date, timezone: string): Period {
  const last = input.to ?? localDay(now, timezone)
  const first = input.from ?? dayOf(dayNumber(last) - (SERIES_DAYS - 1))
  const count = dayNumber(last) - dayNumber(first) + 1
  if (count < 1) {
    throw new AppError(
      'invalid_request',
      `from (${first}) is after to (${last}); the period runs from from to to, both included.`,
      {
        details: [{ path: 'from', message: 'after to' }],
      },
    )
  }
  if (count > MAX_PERIOD_DAYS) {
    throw new AppError(
      'invalid_request',
      `The period from ${first} to ${last} is ${count} days long; at most ${MAX_PERIOD_DAYS} days can be asked for at once.`,
      {
        details: [
          {
            path: 'to',
            message: `more than ${MAX_PERIOD_DAYS} days after from`,
            limit: MAX_PERIOD_DAYS,
            actual: count,
          },
        ],
      },
    )
  }
  const days = Array.from({ length: count }, (_, i) => dayOf(dayNumber(first) + i))
  return { days, from: startOf(first, timezone), until: startOf(dayOf(dayNumber(last) + 1), timezone) }
}
