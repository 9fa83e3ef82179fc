/** What one account's sync run carries from stream to stream (services/inbox/sync.ts). */
import type { Deps } from '../../deps'
import type { InboxSyncPolicy } from '../../domain/inbox-sync-policy'
import type { Connection, PlatformId } from '../../domain/vocabulary'
import type { AccountCallInput, NetworkAdapter } from '../../networks/adapter'

export type SyncDeps = Pick<Deps, 'db' | 'cipher' | 'networks' | 'logger' | 'clock' | 'webhookQueue' | 'settings'> &
  Partial<Pick<Deps, 'syncQueue'>>

export interface SyncAccount {
  id: string
  workspaceId: string
  platform: PlatformId
  connection: Connection
  credentials: string
}

export interface SyncRun {
  deps: SyncDeps
  account: SyncAccount
  adapter: NetworkAdapter
  /** The fields of every network call (credentials usable, the account's base URL). */
  call: AccountCallInput
  holder: string
  now: Date
  policy: InboxSyncPolicy
  /** What the run did, summed into the pass's report. */
  counts: SyncCounts
}

export interface SyncCounts {
  networkCalls: number
  importedPosts: number
  newComments: number
  newMentions: number
  events: number
}

export const emptyCounts = (): SyncCounts => ({
  networkCalls: 0,
  importedPosts: 0,
  newComments: 0,
  newMentions: 0,
  events: 0,
})

export function addCounts(into: SyncCounts, more: SyncCounts): void {
  into.networkCalls += more.networkCalls
  into.importedPosts += more.importedPosts
  into.newComments += more.newComments
  into.newMentions += more.newMentions
  into.events += more.events
}
