/**
 * Deleting a post from its networks (`DELETE /v1/posts/{id}?fromNetworks=true`; docs/decisions.md,
 * "Deleting from the networks"): what each target calls for, decided from its stored state alone.
 * The service calls the networks and writes the result; this file holds the rules and the words.
 */
import { rulesFor } from '../rules/index'
import type { PlatformId, TargetError, TargetStatus } from '../vocabulary'

/**
 * What happened to one target. The first three leave nothing for the API to do, so our record of
 * the target goes; the last three keep it, and deleting again picks up from there.
 */
export const NETWORK_REMOVAL_OUTCOMES = [
  'deleted',
  'not_supported',
  'not_published',
  'failed',
  'unconfirmed',
  'in_progress',
] as const
export type NetworkRemovalOutcome = (typeof NETWORK_REMOVAL_OUTCOMES)[number]

/** Outcomes after which our record of the target is removed. */
export const isFinalRemoval = (outcome: NetworkRemovalOutcome): boolean =>
  outcome === 'deleted' || outcome === 'not_supported' || outcome === 'not_published'

/** The progress key where the ids already removed from the network are kept (a retry skips them). */
export const REMOVED_KEY = 'removedFromNetwork'

export interface TargetState {
  platform: PlatformId
  status: TargetStatus
  error: TargetError | null
  platformPostId: string | null
  progress: Record<string, unknown> | null
}

/** `ids`: everything the target posted, in delete order; `removed`: those an earlier call removed. */
export type RemovalPlan =
  /** Call the network's delete for `toDelete`, in this order. */
  | { action: 'delete'; ids: string[]; removed: string[]; toDelete: string[] }
  /** Nothing to call: the outcome is known now. */
  | { action: 'none'; outcome: Exclude<NetworkRemovalOutcome, 'deleted' | 'failed'>; ids: string[]; removed: string[] }
  /** Everything it posted was removed by an earlier call. */
  | { action: 'done'; ids: string[]; removed: string[] }

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : []

/**
 * The network's ids of everything the target posted, from its saved progress: the head post, the
 * other items of an album (each its own message), the thread parts. In the order to delete them:
 * the last part first and the head last, so a failure half-way leaves the head (and its permalink).
 */
export function networkIdsOf(target: Pick<TargetState, 'platformPostId' | 'progress'>): string[] {
  const progress = target.progress ?? {}
  const head = typeof progress.headId === 'string' && progress.headId !== '' ? progress.headId : target.platformPostId
  const all = [head, ...strings(progress.messageIds), ...strings(progress.partIds)].filter(
    (id): id is string => typeof id === 'string' && id !== '',
  )
  return [...new Set(all)].reverse()
}

export const removedIdsOf = (progress: Record<string, unknown> | null): string[] => strings(progress?.[REMOVED_KEY])

/** A network job or a send whose answer the engine is still waiting for: the engine must finish first. */
const inFlight = (t: TargetState): boolean =>
  t.status === 'PUBLISHING' ||
  (t.status === 'PENDING' &&
    t.progress !== null &&
    (t.progress.pending !== undefined || (t.progress.sending !== undefined && t.progress.sending !== null)))

/** What deleting from the networks does with this target. Never deletes what it is not sure of. */
export function planRemoval(target: TargetState): RemovalPlan {
  const ids = networkIdsOf(target)
  const removed = removedIdsOf(target.progress).filter((id) => ids.includes(id))
  if (inFlight(target)) return { action: 'none', outcome: 'in_progress', ids, removed }
  if (target.status === 'FAILED' && target.error?.code === 'unconfirmed')
    return { action: 'none', outcome: 'unconfirmed', ids, removed }
  if (ids.length === 0) return { action: 'none', outcome: 'not_published', ids, removed }
  const left = ids.filter((id) => !removed.includes(id))
  if (left.length === 0) return { action: 'done', ids, removed }
  if (!rulesFor(target.platform).deleteSupported) return { action: 'none', outcome: 'not_supported', ids, removed }
  return { action: 'delete', ids, removed, toDelete: left }
}

const count = (n: number) => (n === 1 ? 'the post' : `the post and ${n - 1} more (thread parts or album items)`)

/** The sentence a caller reads for an outcome. `detail` is the network's words for a failure. */
export function removalMessage(
  outcome: NetworkRemovalOutcome,
  platform: PlatformId,
  facts: { ids: number; permalink: string | null; detail?: string; retryable?: boolean },
): string {
  const where = facts.permalink ? ` (${facts.permalink})` : ''
  switch (outcome) {
    case 'deleted':
      return `Deleted from ${platform}: ${count(facts.ids)}.`
    case 'not_supported':
      return `${platform} has no way to delete a post through its API: it stays published there${where}; remove it in the network's app. Our record of it is removed.`
    case 'not_published':
      return `Nothing of it reached ${platform}; its publish is cancelled.`
    case 'unconfirmed':
      return `Not deleted: we cannot tell whether it reached ${platform} (its publish is unconfirmed). Check the account on the network and remove the post there if it is; then delete this post without fromNetworks.`
    case 'in_progress':
      return `Not deleted: it is being published to ${platform} right now. Delete again once it has settled.`
    case 'failed': {
      const detail = (facts.detail ?? 'the network refused').replace(/[.\s]+$/, '')
      const next =
        facts.retryable === false
          ? 'Our record is kept: remove it on the network yourself, then delete this post without fromNetworks.'
          : 'Our record is kept; delete again to retry what is left.'
      return `Not deleted from ${platform}${where}: ${detail}. ${next}`
    }
  }
}
