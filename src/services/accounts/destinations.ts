import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import type { Destination } from '../../networks/adapter'
import { rulesFor } from '../../domain/rules/index'
import { PLATFORM_IDS, type PlatformId } from '../../domain/vocabulary'
import { getAccountRow } from './accounts'
import { listedNow, readFromNetwork, refuseUnlisted } from './network-reads'

type DestinationDeps = Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock'>

/**
 * The places an account publishes into, as its network lists them (`GET /v1/accounts/{id}/destinations`):
 * their ids are the values of `destinations`. Another workspace's account is 404; an account of a
 * network without destinations (registry `options.destination` null), or one no adapter can list
 * yet, is 422 `invalid_option`.
 */
export async function listAccountDestinations(
  deps: DestinationDeps,
  workspaceId: string,
  accountId: string,
): Promise<Destination[]> {
  const row = await getAccountRow(deps.db, workspaceId, accountId)
  const { platform, connection } = row
  const rule = rulesFor(platform).options.destination
  if (rule === null) {
    const networks = PLATFORM_IDS.filter((p) => rulesFor(p).options.destination !== null)
    throw new AppError(
      'invalid_option',
      `Account ${row.id} is a ${platform} account, whose network publishes into no destination chosen per post; only ${networks.join(', ')} accounts have destinations.`,
      { details: [{ path: 'id', platform }] },
    )
  }
  const adapter = deps.networks.adapterFor(platform, connection)
  if (!adapter?.listDestinations) {
    throw new AppError(
      'invalid_option',
      `The ${rule.nounPlural} of ${platform} accounts connected through ${connection} cannot be listed yet: this service has no adapter for that connection.`,
      { details: [{ path: 'id', platform }] },
    )
  }
  const read = { what: `the ${rule.nounPlural}`, path: 'id', platform }
  return readFromNetwork(deps, row, { adapter, read, call: (input) => adapter.listDestinations!(input) })
}

/**
 * `destinations` entries whose id is not one of their account's destinations: 422
 * `invalid_option` naming `destinations.<accountId>`, checked through the same listing as
 * `GET /v1/accounts/{id}/destinations`, as the boards are (services/accounts/boards.ts):
 * - SANDBOX accounts: their destinations are local, so every save is checked, drafts too.
 * - Real accounts: only when the post is to go out (schedule, queue, now), not for drafts. When
 *   the network cannot list them now, the id is accepted and the publish decides.
 * Entries for accounts that are not the post's, or of networks without destinations, are post
 * validation's to refuse.
 */
export async function assertDestinationsOfAccounts(
  deps: DestinationDeps,
  workspaceId: string,
  accounts: Array<{ id: string; platform: PlatformId; connection: string }>,
  destinations: Record<string, string> | null | undefined,
  intent: 'draft' | 'publish',
): Promise<void> {
  const details = []
  for (const [accountId, id] of Object.entries(destinations ?? {})) {
    const account = accounts.find((a) => a.id === accountId)
    const rule = account ? rulesFor(account.platform).options.destination : null
    if (!account || !rule || id.trim() === '') continue
    if (account.connection !== 'SANDBOX' && intent === 'draft') continue
    const listed = await listedNow(() => listAccountDestinations(deps, workspaceId, accountId))
    if (listed === null || listed.some((d) => d.id === id)) continue
    details.push({
      path: `destinations.${accountId}`,
      code: 'invalid_option' as const,
      accountId,
      platform: account.platform,
      message: `${id} is not one of account ${accountId}'s ${rule.nounPlural}; pick one from GET /v1/accounts/${accountId}/destinations.`,
    })
  }
  refuseUnlisted(details)
}
