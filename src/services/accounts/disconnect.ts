/**
 * Disconnecting an account (`DELETE /v1/accounts/{id}`): the token is revoked at the network where
 * it documents a revocation endpoint, then in one transaction the account's pending targets fail
 * with `account_disconnected` (never published), their posts settle, and the account is kept as
 * DISCONNECTED with its credentials wiped, with `target.failed`, `post.failed` and
 * `account.disconnected` recorded in that transaction (webhooks). Lock order as everywhere: posts,
 * then their targets, then the account.
 */
import { lockWorkspaceAccount, markAccountDisconnected } from '../../db/queries/accounts'
import { lockPost } from '../../db/queries/publishing-posts'
import { failPendingTargetsOfAccount, listPostsWithPendingTargets, listTargetOutcomes } from '../../db/queries/targets'
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import type { TargetError } from '../../domain/vocabulary'
import { NetworkFailure } from '../../networks/http'
import { FEDERATED_OAUTH } from '../../networks/adapters/federated/oauth'
import { revokeToken } from '../../networks/oauth-connect'
import { OAUTH_PROVIDERS } from '../../networks/oauth-providers'
import { type AccountRecord, getAccount, getAccountRow, toAccountRecord } from './accounts'
import { knownFederatedContext } from '../connect/federated-apps'
import { oauthContext } from '../connect/oauth-context'
import { isSettled, settlePost } from '../publishing/aggregate'
import { newOutbox, recordEvent, sendOutbox } from '../webhooks/outbox'
import { recordTargetSettled } from '../webhooks/publish-events'
import { notifyAccountNeedsReconnect } from '../notifications/triggers'
import { recordAccountActivity } from '../activity/accounts'
import { callerOfScope, type WorkspaceScope } from '../activity/scope'

const DISCONNECTED_ERROR: TargetError = {
  code: 'account_disconnected',
  message: 'The account was disconnected before this post went out; reconnect it, then retry.',
  retryable: true,
}

export interface DisconnectResult {
  account: AccountRecord
  /** Whether the network confirmed the token's revocation (false: it has no revocation endpoint, or refused). */
  revoked: boolean
  /** Pending targets that were failed. */
  failedTargets: number
}

export async function disconnectAccount(
  deps: Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock' | 'settings' | 'logger' | 'webhookQueue'>,
  scope: WorkspaceScope,
  accountId: string,
): Promise<DisconnectResult> {
  const caller = callerOfScope(scope)
  const { workspaceId } = caller
  const row = await getAccountRow(deps.db, workspaceId, accountId)
  if (row.status === 'DISCONNECTED')
    return { account: await getAccount(deps.db, workspaceId, accountId), revoked: false, failedTargets: 0 }
  let revoked = false
  let reason = 'Disconnected by the user.'
  const federated = row.platform === FEDERATED_OAUTH.platform && row.connection === FEDERATED_OAUTH.connection
  const provider = federated ? FEDERATED_OAUTH : OAUTH_PROVIDERS[row.platform]
  if (provider?.revoke && provider.connection === row.connection && row.credentials) {
    try {
      const credentials = await deps.cipher.decrypt(row.credentials, row.id)
      const ctx =
        federated && typeof credentials.instanceUrl === 'string'
          ? await knownFederatedContext(deps, credentials.instanceUrl)
          : oauthContext(deps, row.platform)
      const token =
        provider.revokes === 'access' ? credentials.accessToken : (credentials.refreshToken ?? credentials.accessToken)
      if (ctx && typeof token === 'string' && token) revoked = await revokeToken(provider, ctx, token)
    } catch (err) {
      // The account is disconnected anyway: the user asked for it. The reason says what the network answered.
      if (!(err instanceof NetworkFailure)) throw err
      reason = `Disconnected by the user; ${err.message}: revoke the access in the network's own settings.`
      deps.logger.warn('account_revoke_failed', { accountId: row.id, platform: row.platform })
    }
  }
  const now = deps.clock.now()
  const outbox = newOutbox()
  const failedTargets = await deps.db.transaction(async (tx) => {
    let failed = 0
    for (const postId of await listPostsWithPendingTargets(tx, accountId)) {
      const post = await lockPost(tx, postId)
      if (!post) continue
      const ids = await failPendingTargetsOfAccount(tx, postId, accountId, DISCONNECTED_ERROR, now)
      for (const id of ids) await recordTargetSettled(tx, outbox, post, id, now)
      failed += ids.length
      // Settled only when nothing of it is still to go out (a scheduled post keeps its other accounts).
      const outcomes = await listTargetOutcomes(tx, postId)
      if (outcomes.every((t) => isSettled(t.status))) await settlePost(tx, postId, now, outbox, post)
    }
    const locked = await lockWorkspaceAccount(tx, workspaceId, accountId)
    if (!locked) throw new AppError('not_found', 'Account not found.')
    await markAccountDisconnected(tx, accountId, reason)
    const record = toAccountRecord({ ...locked, status: 'DISCONNECTED', statusMessage: reason, updatedAt: now })
    await recordEvent(tx, outbox, { workspaceId, type: 'account.disconnected', data: { ...record }, now })
    await notifyAccountNeedsReconnect(tx, { workspaceId, accountId, reason, now })
    await recordAccountActivity(tx, caller, {
      action: 'account.disconnected',
      account: locked,
      words: 'disconnected',
      details: { failedTargets: failed, tokenRevoked: revoked },
      now,
    })
    return failed
  })
  await sendOutbox(deps, outbox)
  return { account: await getAccount(deps.db, workspaceId, accountId), revoked, failedTargets }
}
