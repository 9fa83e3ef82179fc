/** One account to sync, handed over by the pass (`now`) that found it due. */
export interface SyncDue {
  accountId: string
  pass: Date
}

/**
 * Hands due accounts of an inbox sync pass to whatever runs them elsewhere: QStash on Workers
 * (signed callbacks to `/internal/inbox-sync`). Absent from the deps where syncs run in the pass
 * itself (Node). A lost hand-over only delays: the account stays due for the next pass.
 */
export interface SyncQueue {
  enqueue(items: SyncDue[]): Promise<void>
}

/** The de-duplication id of a hand-over: one per account and pass. */
export const syncDueId = (item: SyncDue): string => `${item.accountId}-p${item.pass.getTime()}`
