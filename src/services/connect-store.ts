/**
 * Storing what a hosted connect confirmed, in one transaction with taking its link: a reconnect
 * renews its own account (the same network identity only); otherwise the workspace's account of
 * that identity is renewed, or a new one is added under the plan's cap. The same identity in
 * another workspace is another account (agencies connect their clients' accounts).
 */
import { findAccountByIdentity, lockWorkspaceAccount, reconnectAccountRow } from '../db/queries/accounts'
import { type ConnectLinkRow, useConnectLink } from '../db/queries/connect-links'
import type { Deps } from '../deps'
import { newId } from '../lib/ids'
import type { VerifiedAccount } from '../networks/adapter'
import { assertRoomForAccount, insertSealedAccount, tokenExpiryOf } from './accounts'
import { ConnectRefusal, type Connected } from './connect-refusal'

export async function storeConnectedAccount(
  deps: Pick<Deps, 'db' | 'cipher' | 'clock'>,
  link: ConnectLinkRow,
  verified: VerifiedAccount,
): Promise<Connected> {
  const back = link.redirectUrl
  const username = verified.username || verified.externalId
  return deps.db.transaction(async (tx) => {
    if (!(await useConnectLink(tx, link.id, deps.clock.now())))
      throw new ConnectRefusal(
        'link_used',
        'This connect link was already used or has expired. Ask for a new one.',
        410,
        back,
      )
    const renew = async (accountId: string) => {
      const sealed = await deps.cipher.encrypt(verified.credentials, accountId)
      await reconnectAccountRow(tx, accountId, {
        username,
        externalId: verified.externalId,
        credentials: sealed,
        tokenExpiresAt: tokenExpiryOf(verified.credentials),
      })
      return { accountId, username, platform: link.platform, redirectUrl: back, reconnected: true }
    }
    if (link.accountId) {
      const account = await lockWorkspaceAccount(tx, link.workspaceId, link.accountId)
      if (!account) throw new ConnectRefusal('account_gone', 'The account to reconnect no longer exists.', 404, back)
      if (account.externalId && account.externalId !== verified.externalId) {
        throw new ConnectRefusal(
          'identity_mismatch',
          `You signed in as ${username}, but this link reconnects ${account.username}. Sign in to ${link.platform} as ${account.username} and try again, or connect ${username} as a new account.`,
          422,
          back,
        )
      }
      // A disconnected account counts against the plan again once it is back.
      if (account.status === 'DISCONNECTED') await assertRoomForAccount(tx, link.workspaceId)
      return renew(account.id)
    }
    const existing = await findAccountByIdentity(tx, link.workspaceId, link.platform, verified.externalId)
    if (existing && existing.connection === link.connection) {
      if (existing.status === 'DISCONNECTED') await assertRoomForAccount(tx, link.workspaceId)
      return renew(existing.id)
    }
    const id = newId('account')
    const sealed = await deps.cipher.encrypt(verified.credentials, id)
    await insertSealedAccount(tx, id, sealed, {
      workspaceId: link.workspaceId,
      platform: link.platform,
      connection: link.connection,
      username,
      externalId: verified.externalId,
      credentials: verified.credentials,
    })
    return { accountId: id, username, platform: link.platform, redirectUrl: back, reconnected: false }
  })
}
