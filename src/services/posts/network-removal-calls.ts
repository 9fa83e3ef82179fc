/**
 * The network side of deleting a post from its networks: one target's posts (head, thread parts,
 * album items) removed through its adapter's `deletePost`, one after the other, outside any
 * transaction. Classified failures keep the network's words; anything else is logged by class only.
 */
import { findAccount } from '../../db/queries/accounts'
import type { TargetRow } from '../../db/queries/posts'
import type { Deps } from '../../deps'
import { RECONNECT_MESSAGE } from '../../domain/publishing/decision'
import type { FailureKind } from '../../networks/adapter'
import { NetworkFailure } from '../../networks/http'
import { describeError } from '../../infra/logger'
import { usableCredentials } from '../accounts/credentials'

export type RemovalDeps = Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock' | 'logger' | 'webhookQueue'>

export interface RemovalFailure {
  kind: FailureKind
  message: string
  retryable: boolean
}

export interface RemovalCall {
  /** The ids the network confirmed gone (or already gone), in the order they were asked. */
  removed: string[]
  /** Why it stopped before the end; null when every id went. */
  failure: RemovalFailure | null
  /** True when this account's connection has no delete at all (nothing was called). */
  unsupported: boolean
}

const failed = (removed: string[], kind: FailureKind, message: string, retryable: boolean): RemovalCall => ({
  removed,
  failure: { kind, message, retryable },
  unsupported: false,
})

const retryableKind = (kind: FailureKind) => kind === 'transient' || kind === 'rate_limited' || kind === 'auth_expired'

/** Deletes `ids` (already in their order) of one target at its network; stops at the first failure. */
export async function removeTargetPosts(deps: RemovalDeps, target: TargetRow, ids: string[]): Promise<RemovalCall> {
  const removed: string[] = []
  const account = await findAccount(deps.db, target.accountId)
  if (!account) return failed(removed, 'rejected', 'The account was removed.', false)
  if (account.status === 'EXPIRED')
    return failed(removed, 'auth_expired', `${account.statusMessage ?? RECONNECT_MESSAGE}, then delete again`, true)
  if (account.status !== 'ACTIVE')
    return failed(removed, 'rejected', 'the account is disconnected: reconnect it, then delete again', true)
  const adapter = deps.networks.adapterFor(target.platform, account.connection)
  if (!adapter?.deletePost) return { removed, failure: null, unsupported: true }
  const deletePost = adapter.deletePost.bind(adapter)
  try {
    let usable = await usableCredentials(deps, account, adapter)
    if (!usable.ok) return failed(removed, usable.kind, usable.message, retryableKind(usable.kind))
    let renewed = usable.refreshed
    const call = (id: string, credentials: Record<string, unknown>) =>
      deletePost({
        connection: account.connection,
        credentials,
        platformPostId: id,
        fetch: deps.networks.fetch,
        baseUrl: deps.networks.baseUrlFor(target.platform, account.connection, credentials),
        now: deps.clock.now(),
      })
    for (const id of ids) {
      try {
        await call(id, usable.credentials)
      } catch (err) {
        // A token refused although it was not due: renew it once and ask again, as publishing does.
        if (!(err instanceof NetworkFailure && err.kind === 'auth_expired' && adapter.credentialRefresh && !renewed))
          throw err
        renewed = true
        usable = await usableCredentials(deps, account, adapter, { force: true })
        if (!usable.ok) return failed(removed, usable.kind, usable.message, retryableKind(usable.kind))
        await call(id, usable.credentials)
      }
      removed.push(id)
    }
    return { removed, failure: null, unsupported: false }
  } catch (err) {
    if (err instanceof NetworkFailure)
      return failed(removed, err.kind, err.message, err.retryable ?? retryableKind(err.kind))
    deps.logger.error('post_delete_unexpected_error', {
      targetId: target.id,
      postId: target.postId,
      platform: target.platform,
      errorClass: String(describeError(err).errorType),
    })
    return failed(removed, 'transient', 'the delete failed on our side (unexpected error)', true)
  }
}
