import type { Client } from '@upstash/qstash'
import type { InboxSyncCallbackBody } from '../../domain/delivery-callbacks'
import { syncDueId, type SyncQueue } from './types'

/**
 * Inbox syncs through QStash (the Worker): one message per due account to `callbackUrl`, signed by
 * QStash and checked by the same verifier as the publish callback, de-duplicated per (account,
 * pass). No QStash retries: an account whose sync did not run stays due for the next pass.
 */
export function createQStashSyncQueue(options: { client: Pick<Client, 'batchJSON'>; callbackUrl: string }): SyncQueue {
  return {
    async enqueue(items) {
      for (let i = 0; i < items.length; i += 100) {
        await options.client.batchJSON(
          items.slice(i, i + 100).map((item) => ({
            url: options.callbackUrl,
            body: { accountId: item.accountId } satisfies InboxSyncCallbackBody,
            deduplicationId: syncDueId(item),
            retries: 0,
          })),
        )
      }
    },
  }
}
