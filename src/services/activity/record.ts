/**
 * Records one entry of the activity log, inside the transaction of the change it reports: a change
 * that rolls back takes its entry with it.
 */
import { insertActivity } from '../../db/queries/activity'
import type { DbOrTx } from '../../db/types'
import type { ActorRef } from '../../domain/access'
import { newId } from '../../lib/ids'

export interface ActivityEntry {
  workspaceId: string
  actor: ActorRef
  ip: string | null
  /** Dotted, e.g. `post.created`. */
  action: string
  subject: { type: string; id: string | null }
  /** What happened, in words. */
  summary: string
  details?: Record<string, unknown>
  now: Date
}

export async function recordActivity(tx: DbOrTx, entry: ActivityEntry): Promise<void> {
  await insertActivity(tx, {
    id: newId('activity'),
    workspaceId: entry.workspaceId,
    at: entry.now,
    actor: entry.actor,
    actorKind: entry.actor.kind,
    actorId: entry.actor.id,
    action: entry.action,
    subjectType: entry.subject.type,
    subjectId: entry.subject.id,
    summary: entry.summary,
    details: entry.details ?? {},
    ip: entry.ip,
  })
}
