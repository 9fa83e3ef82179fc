/**
 * Times on the working pages: every date a member reads or types is a wall-clock time in the
 * workspace time zone (the zone queue slots and recurrence use), turned into an instant here.
 */
import { TZDate } from '@date-fns/tz'

const pad = (n: number) => String(n).padStart(2, '0')

/** `YYYY-MM-DD` of a zoned date. */
export const dayKeyOf = (d: TZDate): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`

/** The instant as the zone's wall clock, `YYYY-MM-DDTHH:mm` (the value of a datetime-local input). */
export function toLocalInput(instant: Date | string, timeZone: string): string {
  const d = new TZDate(new Date(instant).getTime(), timeZone)
  return `${dayKeyOf(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** The zone's day of an instant, `YYYY-MM-DD`. */
export const localDayOf = (instant: Date | string, timeZone: string): string =>
  dayKeyOf(new TZDate(new Date(instant).getTime(), timeZone))

/** `HH:mm` of an instant in the zone. */
export const localTimeOf = (instant: Date | string, timeZone: string): string =>
  toLocalInput(instant, timeZone).slice(11)

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/

/** A wall-clock `YYYY-MM-DDTHH:mm` in the zone as an ISO instant; null when it is not one. */
export function fromLocalInput(value: string, timeZone: string): string | null {
  const m = LOCAL_INPUT.exec(value.trim())
  if (!m) return null
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number]
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null
  return new Date(new TZDate(y, mo - 1, d, h, mi, timeZone).getTime()).toISOString()
}

/** Midnight of a `YYYY-MM-DD` day in the zone, plus `days`. */
export function zonedDay(day: string, timeZone: string, days = 0): TZDate {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return new TZDate(y, m - 1, d + days, 0, 0, timeZone)
}

/** The days (`YYYY-MM-DD`) a calendar view shows: the week from Monday, or the month's weeks from Monday. */
export function calendarDays(view: 'week' | 'month', anchorDay: string, timeZone: string): string[] {
  const anchor = zonedDay(anchorDay, timeZone)
  const first = view === 'week' ? anchor : new TZDate(anchor.getFullYear(), anchor.getMonth(), 1, 0, 0, timeZone)
  const back = (first.getDay() + 6) % 7
  const start = dayKeyOf(zonedDay(dayKeyOf(first), timeZone, -back))
  if (view === 'week') return Array.from({ length: 7 }, (_, i) => dayKeyOf(zonedDay(start, timeZone, i)))
  const last = new TZDate(first.getFullYear(), first.getMonth() + 1, 0, 0, 0, timeZone)
  const count = back + last.getDate() + ((7 - last.getDay()) % 7)
  return Array.from({ length: count }, (_, i) => dayKeyOf(zonedDay(start, timeZone, i)))
}
