import { AppError } from '../../domain/errors'
import type { PostAction } from './types'
import type { PostStatus } from '../../domain/vocabulary'
import { nextFreeQueueOccurrence } from './queue'
import type { DbOrTx } from '../../db/types'

export interface PostTiming {
  status: PostStatus
  scheduledAt: Date | null
  queued: boolean
  queueSlotAt: Date | null
  /** When the targets become due; null for a draft. */
  dueAt: Date | null
}

/**
 * Where an action puts a post: `draft` -> DRAFT; `schedule` (a future `scheduledAt`) and `queue` (the
 * earliest free slot occurrence) -> SCHEDULED; `now` -> PUBLISHING (docs/decisions.md, "Statuses").
 */
export async function timingFor(
  db: DbOrTx,
  input: { action: PostAction | undefined; scheduledAt: Date | null; workspaceId: string; timezone: string; now: Date },
): Promise<PostTiming> {
  switch (input.action) {
    case 'schedule': {
      if (!input.scheduledAt) {
        throw new AppError('schedule_time_required', "action 'schedule' needs scheduledAt.", {
          details: [{ path: 'scheduledAt' }],
        })
      }
      if (input.scheduledAt.getTime() <= input.now.getTime()) {
        throw new AppError(
          'schedule_time_in_past',
          `scheduledAt ${input.scheduledAt.toISOString()} is not in the future; use action 'now' to publish at once.`,
          {
            details: [{ path: 'scheduledAt' }],
          },
        )
      }
      return {
        status: 'SCHEDULED',
        scheduledAt: input.scheduledAt,
        queued: false,
        queueSlotAt: null,
        dueAt: input.scheduledAt,
      }
    }
    case 'queue': {
      const at = await nextFreeQueueOccurrence(db, input.workspaceId, input.timezone, input.now)
      return { status: 'SCHEDULED', scheduledAt: at, queued: true, queueSlotAt: at, dueAt: at }
    }
    case 'now':
      return { status: 'PUBLISHING', scheduledAt: input.now, queued: false, queueSlotAt: null, dueAt: input.now }
    default:
      return { status: 'DRAFT', scheduledAt: input.scheduledAt, queued: false, queueSlotAt: null, dueAt: null }
  }
}

/** The post's columns a timing sets (its `dueAt` goes to the targets). */
export function timingColumns(t: PostTiming) {
  return { status: t.status, scheduledAt: t.scheduledAt, queued: t.queued, queueSlotAt: t.queueSlotAt }
}
