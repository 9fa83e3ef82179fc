/**
 * Where a dragged post lands: the wall-clock time (`YYYY-MM-DDTHH:mm`, the workspace zone, as the
 * reschedule form takes it) of a drop on a week slot (that day and hour, the post's minutes) or on
 * a month day (that day, the post's time of day). Null when the drop changes nothing or the target
 * is not a place on the calendar.
 */
export interface DropPlace {
  /** `YYYY-MM-DD` of the day dropped on. */
  day?: string | undefined
  /** `HH` of the week slot dropped on; none on a month day. */
  hour?: string | undefined
}

const DAY = /^\d{4}-\d{2}-\d{2}$/
const TIME = /^\d{2}:\d{2}$/
const HOUR = /^\d{2}$/

export function dropTime(place: DropPlace, post: { day: string; time: string }): string | null {
  if (!place.day || !DAY.test(place.day) || !TIME.test(post.time)) return null
  if (place.hour !== undefined && !HOUR.test(place.hour)) return null
  const time = place.hour === undefined ? post.time : `${place.hour}:${post.time.slice(3)}`
  const at = `${place.day}T${time}`
  return at === `${post.day}T${post.time}` ? null : at
}
