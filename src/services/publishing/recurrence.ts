import { TZDate } from '@date-fns/tz'
import { addDays, addMonths, addWeeks } from 'date-fns'
import { and, eq } from 'drizzle-orm'
import { posts, targets, workspaces } from '../../db/schema'
import type { Tx } from '../../db/types'
import { newId } from '../../lib/ids'
import type { PostRow } from '../posts/record'

type Recurrence = NonNullable<PostRow['recurrence']> & { occurrence?: number }

/**
 * The occurrence after `from`, at the same local wall-clock time in `timezone` (so 09:00 stays
 * 09:00 across daylight-saving changes); a month step keeps the day or takes the month's last.
 */
export function nextOccurrence(from: Date, recurrence: Pick<Recurrence, 'frequency' | 'interval'>, timezone: string): Date {
  const local = new TZDate(from.getTime(), timezone)
  const step = recurrence.interval
  const next = recurrence.frequency === 'daily' ? addDays(local, step) : recurrence.frequency === 'weekly' ? addWeeks(local, step) : addMonths(local, step)
  return new Date(next.getTime())
}

/**
 * When an occurrence of a recurring post has gone out, the next one is created as a new
 * SCHEDULED post with the same content, linked by `recurrence.parentId`, until `count`
 * occurrences or `endsAt`. An occurrence whose time has already passed (a late publish) is
 * skipped to the next future one. Returns the new post's id, or null when the series ends.
 */
export async function scheduleNextOccurrence(tx: Tx, post: PostRow, now: Date): Promise<string | null> {
  const recurrence = post.recurrence as Recurrence | null
  if (!recurrence || !post.scheduledAt) return null
  const [existing] = await tx.select({ id: posts.id }).from(posts).where(eq(posts.recurrenceParentId, post.id)).limit(1)
  if (existing) return null
  const [ws] = await tx.select({ timezone: workspaces.timezone }).from(workspaces).where(eq(workspaces.id, post.workspaceId))
  const timezone = ws?.timezone ?? 'UTC'
  let occurrence = recurrence.occurrence ?? 1
  let at = post.scheduledAt
  do {
    at = nextOccurrence(at, recurrence, timezone)
    occurrence++
  } while (at.getTime() <= now.getTime())
  if (recurrence.count !== null && occurrence > recurrence.count) return null
  if (recurrence.endsAt && at.getTime() > new Date(recurrence.endsAt).getTime()) return null
  const id = newId('post')
  const { id: _id, createdAt: _c, updatedAt: _u, publishedAt: _p, version: _v, ...content } = post
  await tx.insert(posts).values({
    ...content,
    id,
    status: 'SCHEDULED',
    scheduledAt: at,
    queued: false,
    queueSlotAt: null,
    recurrence: { ...recurrence, occurrence },
    recurrenceParentId: post.id,
    createdAt: now,
    updatedAt: now,
  })
  const parentTargets = await tx.select().from(targets).where(and(eq(targets.postId, post.id)))
  await tx.insert(targets).values(
    parentTargets.map((t) => ({ id: newId('target'), postId: id, workspaceId: t.workspaceId, accountId: t.accountId, platform: t.platform, position: t.position, status: 'PENDING', dueAt: at })),
  )
  return id
}
