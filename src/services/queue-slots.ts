import { deleteQueueSlots, insertQueueSlots, listQueueSlots } from '../db/queries/queue-slots'
import { findWorkspaceTimezone, setWorkspaceTimezone } from '../db/queries/workspaces'
import type { Db } from '../db/types'
import { AppError, type ErrorDetail } from '../domain/errors'
import { newId } from '../lib/ids'
import { isValidTimeZone } from '../lib/timezone'
import { findFreeQueueOccurrence } from './posts/queue'
import { lockWorkspace } from './workspace/lock'

export interface QueueSlotView {
  id: string
  /** 0 = Sunday. */
  weekday: number
  /** Local time in the workspace zone, `HH:MM`. */
  time: string
}

export interface QueueSchedule {
  timezone: string
  slots: QueueSlotView[]
  /** The occurrence `action: 'queue'` would take now (ISO); null with no slots or none free. */
  nextFreeSlot: string | null
}

export const MAX_QUEUE_SLOTS = 168

const toTime = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
export const parseTime = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

export async function getQueueSchedule(db: Db, workspaceId: string, now: Date): Promise<QueueSchedule> {
  const timezone = await findWorkspaceTimezone(db, workspaceId)
  if (timezone === null) throw new AppError('not_found', 'Workspace not found.')
  const rows = await listQueueSlots(db, workspaceId)
  const next = rows.length === 0 ? null : await findFreeQueueOccurrence(db, workspaceId, timezone, now)
  return {
    timezone,
    slots: rows.map((r) => ({ id: r.id, weekday: r.weekday, time: toTime(r.minutes) })),
    nextFreeSlot: next instanceof Date ? next.toISOString() : null,
  }
}

/**
 * Replaces the weekly schedule (and optionally the workspace zone) in one transaction.
 * Posts already queued keep the absolute time they were given.
 */
export async function replaceQueueSchedule(
  db: Db,
  workspaceId: string,
  input: { timezone?: string | undefined; slots: Array<{ weekday: number; time: string }> },
  now: Date,
): Promise<QueueSchedule> {
  const problems: ErrorDetail[] = []
  if (input.timezone !== undefined && !isValidTimeZone(input.timezone)) {
    problems.push({
      path: 'timezone',
      message: `unknown time zone "${input.timezone}"; use an IANA name such as Europe/Berlin`,
    })
  }
  const seen = new Map<string, number>()
  input.slots.forEach((slot, i) => {
    const key = `${slot.weekday}@${parseTime(slot.time)}`
    const first = seen.get(key)
    if (first !== undefined) problems.push({ path: `slots.${i}`, message: `same weekday and time as slots.${first}` })
    else seen.set(key, i)
  })
  if (problems.length > 0) {
    throw new AppError(
      'invalid_request',
      problems.length === 1
        ? `Invalid request: ${problems[0]!.path}: ${problems[0]!.message}`
        : 'Invalid queue schedule; see details.',
      { details: problems },
    )
  }
  await db.transaction(async (tx) => {
    // Concurrent replacements of one schedule take turns (else both inserts collide on queue_slots_uq).
    await lockWorkspace(tx, workspaceId)
    if (input.timezone !== undefined) await setWorkspaceTimezone(tx, workspaceId, input.timezone)
    await deleteQueueSlots(tx, workspaceId)
    if (input.slots.length > 0) {
      await insertQueueSlots(
        tx,
        input.slots.map((s) => ({ id: newId('slot'), workspaceId, weekday: s.weekday, minutes: parseTime(s.time) })),
      )
    }
  })
  return getQueueSchedule(db, workspaceId, now)
}
