/**
 * The identity chooser of the hosted connect page: a sign-in that granted several identities
 * (Pages, channels, organisations) is held as a pending choice (the identities and their tokens
 * sealed, bound to the link and the sign-in, expiring with the sign-in's state) until the owner
 * posts which ones to connect, with the choice's single-use token. Nothing is stored as an
 * account before that; choosing none stores nothing. A reconnect needs no choice: the account's
 * own identity is taken, or the sign-in refused in words when it is not among them.
 */
import { findConnectLinkById, insertConnectChoice, takeConnectChoice } from '../../db/queries/connect-links'
import type { ConnectLinkRow, OAuthStateRow } from '../../db/queries/connect-links'
import type { Deps } from '../../deps'
import type { PlatformId } from '../../domain/vocabulary'
import { sha256Hex } from '../../lib/crypto'
import { newId, randomBase62 } from '../../lib/ids'
import type { VerifiedAccount } from '../../networks/adapter'
import { getAccountRow } from '../accounts/accounts'
import { ConnectRefusal, type Connected } from './refusal'
import { storeConnectedAccounts } from './store'

type ChoiceDeps = Pick<Deps, 'db' | 'cipher' | 'clock'>

/** What the chooser page shows: one checkbox per identity, and the token its form posts back. */
export interface IdentityChoice {
  token: string
  platform: PlatformId
  reconnect: false
  redirectUrl: string | null
  identities: Array<{ key: string; username: string; externalId: string }>
}

const usernameOf = (v: VerifiedAccount) => v.username || v.externalId

/**
 * After the exchange: the account(s) connected at once (one identity, or a reconnect), or the
 * choice to offer. `state`: the sign-in the choice is bound to (its expiry is the choice's).
 */
export async function connectOrOffer(
  deps: ChoiceDeps,
  link: ConnectLinkRow,
  state: OAuthStateRow,
  identities: VerifiedAccount[],
): Promise<Connected | IdentityChoice> {
  const back = link.redirectUrl
  if (identities.length === 0)
    throw new ConnectRefusal(
      'no_identity',
      `This ${link.platform} sign-in gave access to no account that can publish (no Page, channel or organisation you manage). Sign in as someone who manages one, or grant access to it.`,
      422,
      back,
    )
  if (link.accountId) {
    const account = await getAccountRow(deps.db, link.workspaceId, link.accountId)
    const same = identities.find((i) => i.externalId === account.externalId)
    if (same || identities.length === 1) return storeConnectedAccounts(deps, link, [same ?? identities[0]!])
    throw new ConnectRefusal(
      'identity_mismatch',
      `This link reconnects ${account.username}, but the sign-in gave access to ${identities.map(usernameOf).join(', ')} only. Sign in as someone who manages ${account.username} and try again.`,
      422,
      back,
    )
  }
  if (identities.length === 1) return storeConnectedAccounts(deps, link, identities)
  const token = randomBase62(43)
  const id = newId('connectChoice')
  await insertConnectChoice(deps.db, {
    id,
    linkId: link.id,
    oauthStateId: state.id,
    tokenHash: await sha256Hex(token),
    platform: link.platform,
    identities: await deps.cipher.encrypt({ identities }, id),
    expiresAt: new Date(Math.min(state.expiresAt.getTime(), link.expiresAt.getTime())),
  })
  return {
    token,
    platform: link.platform,
    reconnect: false,
    redirectUrl: back,
    identities: identities.map((i, n) => ({ key: String(n), username: usernameOf(i), externalId: i.externalId })),
  }
}

/**
 * The owner's choice, posted back with the choice's token: taken once, whatever is chosen; the
 * chosen identities stored together. `chosen`: the keys of the ticked boxes.
 */
export async function completeChoice(
  deps: ChoiceDeps,
  platform: PlatformId,
  token: string,
  chosen: string[],
): Promise<Connected> {
  const now = deps.clock.now()
  const row = token ? await takeConnectChoice(deps.db, await sha256Hex(token), platform, now) : null
  if (!row)
    throw new ConnectRefusal(
      'choice_unknown',
      'This choice was already made, has expired, or is not one we offered: start again from the connect link.',
      410,
    )
  const link = await findConnectLinkById(deps.db, row.linkId)
  if (!link) throw new ConnectRefusal('link_unknown', 'This connect link no longer exists. Ask for a new one.', 404)
  const { identities } = (await deps.cipher.decrypt(row.identities, row.id)) as { identities: VerifiedAccount[] }
  const picked = identities.filter((_, n) => chosen.includes(String(n)))
  if (picked.length === 0)
    throw new ConnectRefusal(
      'nothing_chosen',
      'No account was chosen, so none was connected. Start again from the connect link to choose one.',
      400,
      link.redirectUrl,
    )
  return storeConnectedAccounts(deps, link, picked)
}
