import { TZDate } from '@date-fns/tz'
import { addDays } from 'date-fns/addDays'
import { addMonths } from 'date-fns/addMonths'
import { addWeeks } from 'date-fns/addWeeks'
import { insertPost } from '../../db/queries/posts'
import { findNextOccurrenceId } from '../../db/queries/publishing-posts'
import { insertTargets, listPostTargets } from '../../db/queries/targets'
import { findWorkspaceTimezone } from '../../db/queries/workspaces'
import type { Tx } from '../../db/types'
import { newId } from '../../lib/ids'
import type { PostRow } from '../posts/record'

type Recurrence = NonNullable<PostRow['recurrence']> & { occurrence?: number; anchor?: string }

/**
 * `steps` intervals after `anchor`, at the same local wall-clock time in `timezone` (so 09:00
 * stays 09:00 across daylight-saving changes). Counting from the series' first occurrence keeps
 * a monthly series on its day: from Jan 31, Feb 28, then Mar 31 (not Mar 28).
 */
export function occurrenceAt(
  anchor: Date,
  recurrence: Pick<Recurrence, 'frequency' | 'interval'>,
  timezone: string,
  steps: number,
): Date {
  const local = new TZDate(anchor.getTime(), timezone)
  const n = recurrence.interval * steps
  const at =
    recurrence.frequency === 'daily'
      ? addDays(local, n)
      : recurrence.frequency === 'weekly'
        ? addWeeks(local, n)
        : addMonths(local, n)
  return new Date(at.getTime())
}

/** The occurrence one interval after `from`. */
export const nextOccurrence = (
  from: Date,
  recurrence: Pick<Recurrence, 'frequency' | 'interval'>,
  timezone: string,
): Date => occurrenceAt(from, recurrence, timezone, 1)

/**
 * When an occurrence of a recurring post has gone out, the next one is created as a new
 * SCHEDULED post with the same content, linked by `recurrence.parentId`, until `count`
 * occurrences or `endsAt`. An occurrence whose time has already passed (a late publish) is
 * skipped to the next future one. Returns the new post's id, or null when the series ends.
 */
export async function scheduleNextOccurrence(tx: Tx, post: PostRow, now: Date): Promise<string | null> {
  const recurrence = post.recurrence as Recurrence | null
  if (!recurrence || !post.scheduledAt) return null
  if ((await findNextOccurrenceId(tx, post.id)) !== null) return null
  const timezone = (await findWorkspaceTimezone(tx, post.workspaceId)) ?? 'UTC'
  const anchor = recurrence.anchor ? new Date(recurrence.anchor) : post.scheduledAt
  let occurrence = recurrence.occurrence ?? 1
  let at: Date
  do {
    occurrence++
    at = occurrenceAt(anchor, recurrence, timezone, occurrence - 1)
  } while (at.getTime() <= now.getTime())
  if (recurrence.count !== null && occurrence > recurrence.count) return null
  if (recurrence.endsAt && at.getTime() > new Date(recurrence.endsAt).getTime()) return null
  const id = newId('post')
  const { id: _id, createdAt: _c, updatedAt: _u, publishedAt: _p, version: _v, ...content } = post
  await insertPost(tx, {
    ...content,
    id,
    status: 'SCHEDULED',
    scheduledAt: at,
    queued: false,
    queueSlotAt: null,
    recurrence: { ...recurrence, occurrence, anchor: anchor.toISOString() },
    recurrenceParentId: post.id,
    createdAt: now,
    updatedAt: now,
  })
  const parentTargets = await listPostTargets(tx, post.id)
  await insertTargets(
    tx,
    parentTargets.map((t) => ({
      id: newId('target'),
      postId: id,
      workspaceId: t.workspaceId,
      accountId: t.accountId,
      platform: t.platform,
      position: t.position,
      status: 'PENDING' as const,
      dueAt: at,
    })),
  )
  return id
}
