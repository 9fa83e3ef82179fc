/**
 * The activity entries of a post's changes by a caller (create, edit, schedule, queue, publish now,
 * retry, delete), written in the transaction of the change. The summary is a sentence; `details`
 * hold the structured facts (the fields an edit changed, the time, the action).
 */
import type { Tx } from '../../db/types'
import type { Caller } from '../caller'
import type { PostTiming } from '../posts/timing'
import type { PostAction } from '../posts/types'
import { recordActivity } from './record'
import { summaryTime, wordList } from './words'

/** The action an edit is recorded as: what it asked the post to do, else a plain edit. */
const EDIT_ACTIONS: Record<PostAction, string> = {
  draft: 'post.updated',
  schedule: 'post.scheduled',
  queue: 'post.queued',
  now: 'post.publish_requested',
}

/** What the post was set to do, as the end of a sentence ("and scheduled it for ..."). */
function outcomeWords(action: PostAction | undefined, timing: PostTiming): string {
  const at = timing.scheduledAt ? summaryTime(timing.scheduledAt) : null
  if (action === 'schedule' && at) return `for ${at}`
  if (action === 'queue' && at) return `in the queue for ${at}`
  if (action === 'now') return 'to publish now'
  return 'as a draft'
}

const timingDetails = (action: PostAction | undefined, timing: PostTiming) => ({
  action: action ?? 'draft',
  status: timing.status,
  scheduledAt: timing.scheduledAt?.toISOString() ?? null,
  queued: timing.queued,
})

interface PostChange {
  postId: string
  action: PostAction | undefined
  timing: PostTiming
  now: Date
}

export function recordPostCreated(tx: Tx, caller: Caller, change: PostChange & { accountIds: string[] }) {
  const { postId, action, timing, now } = change
  return recordActivity(tx, {
    workspaceId: caller.workspaceId,
    actor: caller.actor,
    ip: caller.ip,
    action: 'post.created',
    subject: { type: 'post', id: postId },
    summary: `${caller.actor.name} created post ${postId} ${outcomeWords(action, timing)}`,
    details: { ...timingDetails(action, timing), accountIds: change.accountIds },
    now,
  })
}

/** The fields an edit body set (the action aside), in its order. */
export const changedFields = (input: object): string[] =>
  Object.entries(input)
    .filter(([key, value]) => key !== 'action' && value !== undefined)
    .map(([key]) => key)

export function recordPostEdited(tx: Tx, caller: Caller, change: PostChange & { changed: string[] }) {
  const { postId, action, timing, now, changed } = change
  const kind = EDIT_ACTIONS[action ?? 'draft']
  const fields = changed.filter((f) => f !== 'scheduledAt')
  const edited = fields.length > 0 ? ` (changed ${wordList(fields)})` : ''
  const verb =
    kind === 'post.updated'
      ? `edited post ${postId}${edited}`
      : kind === 'post.publish_requested'
        ? `asked to publish post ${postId} now${edited}`
        : `${kind === 'post.queued' ? 'queued' : 'scheduled'} post ${postId} ${outcomeWords(action, timing)}${edited}`
  return recordActivity(tx, {
    workspaceId: caller.workspaceId,
    actor: caller.actor,
    ip: caller.ip,
    action: kind,
    subject: { type: 'post', id: postId },
    summary: `${caller.actor.name} ${verb}`,
    details: { ...timingDetails(action, timing), changed },
    now,
  })
}

/** A post action without an edit: publish now, retry, delete, delete from the networks. */
export function recordPostAction(
  tx: Tx,
  caller: Caller,
  entry: { postId: string; action: string; words: string; details?: Record<string, unknown>; now: Date },
) {
  return recordActivity(tx, {
    workspaceId: caller.workspaceId,
    actor: caller.actor,
    ip: caller.ip,
    action: entry.action,
    subject: { type: 'post', id: entry.postId },
    summary: `${caller.actor.name} ${entry.words}`,
    details: entry.details ?? {},
    now: entry.now,
  })
}
