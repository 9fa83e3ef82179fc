/**
 * Storing what a hosted connect confirmed, in one transaction with taking its link: a reconnect
 * renews its own account (the same network identity only); otherwise the workspace's account of
 * each identity is renewed, or a new one is added under the plan's cap. The same identity in
 * another workspace is another account (agencies connect their clients' accounts). Several
 * identities chosen at once are stored together or not at all. A new account joins the link's
 * account group, if it names one, in the transaction that inserts it; a renewed one keeps its groups.
 */
import { findAccountByIdentity, lockWorkspaceAccount, reconnectAccountRow } from '../../db/queries/accounts'
import { type ConnectLinkRow, useConnectLink } from '../../db/queries/connect-links'
import type { Tx } from '../../db/types'
import type { Deps } from '../../deps'
import { newId } from '../../lib/ids'
import type { VerifiedAccount } from '../../networks/adapter'
import { assertRoomForAccount, insertSealedAccount, tokenExpiryOf } from '../accounts/accounts'
import { ConnectRefusal, type Connected } from './refusal'
import { recordAccountActivity } from '../activity/accounts'
import { systemCaller } from '../caller'

type StoreDeps = Pick<Deps, 'db' | 'cipher' | 'clock'>
type One = Omit<Connected, 'accounts'>

/** One identity confirmed by a sign-in or a form. */
export const storeConnectedAccount = (deps: StoreDeps, link: ConnectLinkRow, verified: VerifiedAccount) =>
  storeConnectedAccounts(deps, link, [verified])

/** The identities the owner chose (at least one), with the link taken, in one transaction. */
export async function storeConnectedAccounts(
  deps: StoreDeps,
  link: ConnectLinkRow,
  identities: VerifiedAccount[],
): Promise<Connected> {
  return deps.db.transaction(async (tx) => {
    if (!(await useConnectLink(tx, link.id, deps.clock.now())))
      throw new ConnectRefusal(
        'link_used',
        'This connect link was already used or has expired. Ask for a new one.',
        410,
        link.redirectUrl,
      )
    const stored: One[] = []
    for (const verified of identities) stored.push(await storeOne(tx, deps, link, verified))
    const [first] = stored
    return { ...first!, accounts: stored.map((s) => ({ accountId: s.accountId, username: s.username })) }
  })
}

async function storeOne(tx: Tx, deps: StoreDeps, link: ConnectLinkRow, verified: VerifiedAccount): Promise<One> {
  const back = link.redirectUrl
  const username = verified.username || verified.externalId
  {
    const renew = async (accountId: string) => {
      const sealed = await deps.cipher.encrypt(verified.credentials, accountId)
      await reconnectAccountRow(tx, accountId, {
        username,
        externalId: verified.externalId,
        credentials: sealed,
        tokenExpiresAt: tokenExpiryOf(verified.credentials),
        captionMaxLength: verified.captionMaxLength ?? null,
      })
      await recordAccountActivity(tx, systemCaller(link.workspaceId), {
        action: 'account.reconnected',
        account: { id: accountId, platform: link.platform, username },
        words: 'reconnected',
        details: { connectLinkId: link.id },
        now: deps.clock.now(),
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
      captionMaxLength: verified.captionMaxLength ?? null,
      groupId: link.groupId,
    })
    return { accountId: id, username, platform: link.platform, redirectUrl: back, reconnected: false }
  }
}
