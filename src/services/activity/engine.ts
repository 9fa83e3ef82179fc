/**
 * The publishing engine's outcomes in the activity log, by the service itself: a target published or
 * failed, a post published or failed. Made from the same engine events as the webhooks, in the same
 * transaction (record-result.ts, the sweep, a disconnect, aggregate.ts).
 */
import type { Tx } from '../../db/types'
import { SYSTEM_ACTOR } from '../../domain/access'
import type { EngineEvent } from '../webhooks/publish-events'
import { recordActivity } from './record'

interface TargetData {
  postId: string
  target: {
    id: string
    accountId: string
    platform: string
    permalink: string | null
    error: { code: string; message: string } | null
  }
}

function targetEntry(type: string, data: TargetData) {
  const { postId, target } = data
  const published = type === 'target.published'
  return {
    subject: { type: 'post', id: postId },
    summary: published
      ? `Service published post ${postId} on ${target.platform} (account ${target.accountId})`
      : `Service could not publish post ${postId} on ${target.platform} (account ${target.accountId}): ${target.error?.message ?? 'it failed'}`,
    details: {
      targetId: target.id,
      accountId: target.accountId,
      platform: target.platform,
      ...(published ? { permalink: target.permalink } : { error: target.error }),
    },
  }
}

function postEntry(type: string, data: { id: string; status: string }) {
  return {
    subject: { type: 'post', id: data.id },
    summary:
      type === 'post.published'
        ? `Post ${data.id} is published on all its networks`
        : `Post ${data.id} failed on at least one network`,
    details: { status: data.status },
  }
}

const ENGINE_TYPES = new Set(['target.published', 'target.failed', 'post.published', 'post.failed'])

/** Records the activity of the engine events among `events` (others are left to their own code). */
export async function recordEngineActivity(tx: Tx, workspaceId: string, events: readonly EngineEvent[]): Promise<void> {
  for (const event of events) {
    if (!ENGINE_TYPES.has(event.type)) continue
    const entry = event.type.startsWith('target.')
      ? targetEntry(event.type, event.data as unknown as TargetData)
      : postEntry(event.type, event.data as unknown as { id: string; status: string })
    await recordActivity(tx, {
      workspaceId,
      actor: SYSTEM_ACTOR,
      ip: null,
      action: event.type,
      ...entry,
      now: event.now,
    })
  }
}
