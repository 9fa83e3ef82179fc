import { TZDate } from '@date-fns/tz'
import { selectHeldQueueSlots } from '../../db/queries/posts'
import { listQueueSlots } from '../../db/queries/queue-slots'
import type { DbOrTx } from '../../db/types'
import { AppError } from '../../domain/errors'

/** How far ahead the queue looks for a free occurrence. */
export const QUEUE_HORIZON_WEEKS = 52

export interface WeeklySlot {
  weekday: number
  minutes: number
}

/**
 * Occurrences of weekly slots after `after`, in order, as instants. Local wall-clock times in
 * `timezone`: a time that does not exist on a spring-forward day moves forward by the gap
 * (02:30 becomes 03:30), and a time that occurs twice on a fall-back day is the later instant.
 */
export function* slotOccurrences(
  slots: WeeklySlot[],
  timezone: string,
  after: Date,
  weeks = QUEUE_HORIZON_WEEKS,
): Generator<Date> {
  if (slots.length === 0) return
  const sorted = [...slots].sort((a, b) => a.minutes - b.minutes)
  const start = new TZDate(after.getTime(), timezone)
  for (let day = 0; day <= weeks * 7; day++) {
    const date = new TZDate(start.getFullYear(), start.getMonth(), start.getDate() + day, 0, 0, timezone)
    const weekday = date.getDay()
    for (const slot of sorted) {
      if (slot.weekday !== weekday) continue
      const at = new TZDate(
        date.getFullYear(),
        date.getMonth(),
        date.getDate(),
        Math.floor(slot.minutes / 60),
        slot.minutes % 60,
        timezone,
      )
      if (at.getTime() > after.getTime()) yield new Date(at.getTime())
    }
  }
}

/**
 * The earliest slot occurrence after `now` that no live post holds: `null` when the workspace has no
 * slots, `'full'` when every occurrence of the horizon is held. `action: 'queue'` and
 * `GET /v1/queue-slots` (`nextFreeSlot`) both ask this, so they always agree.
 */
export async function findFreeQueueOccurrence(
  db: DbOrTx,
  workspaceId: string,
  timezone: string,
  now: Date,
): Promise<Date | 'full' | null> {
  const slots = await listQueueSlots(db, workspaceId)
  if (slots.length === 0) return null
  const held = new Set((await selectHeldQueueSlots(db, workspaceId, now)).map((at) => at.getTime()))
  for (const at of slotOccurrences(slots, timezone, now)) {
    if (!held.has(at.getTime())) return at
  }
  return 'full'
}

/**
 * The occurrence a queued post takes. The caller holds the workspace row lock, and
 * `posts_queue_slot_uq` makes a double booking impossible regardless.
 */
export async function nextFreeQueueOccurrence(
  db: DbOrTx,
  workspaceId: string,
  timezone: string,
  now: Date,
): Promise<Date> {
  const at = await findFreeQueueOccurrence(db, workspaceId, timezone, now)
  if (at === null) {
    throw new AppError(
      'queue_not_configured',
      'The workspace has no queue slots; set them with PUT /v1/queue-slots or schedule the post instead.',
      {
        details: [{ path: 'action' }],
      },
    )
  }
  if (at === 'full') {
    throw new AppError(
      'queue_not_configured',
      `Every queue slot of the next ${QUEUE_HORIZON_WEEKS} weeks is taken; add slots or schedule the post.`,
      {
        details: [{ path: 'action' }],
      },
    )
  }
  return at
}
