import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import type { Board } from '../../networks/adapter'
import { rulesFor } from '../../domain/rules/index'
import { getAccountRow } from './accounts'
import { listedNow, readFromNetwork, refuseUnlisted } from './network-reads'

/**
 * The boards of a pinboard account, as its network lists them (`GET /v1/accounts/{id}/boards`):
 * their ids are the values of `pinboardNetBoards`. Another workspace's account is 404; an account
 * of a network without boards, or one no adapter can reach yet, is 422 `invalid_option`.
 */
export async function listAccountBoards(
  deps: Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock'>,
  workspaceId: string,
  accountId: string,
): Promise<Board[]> {
  const row = await getAccountRow(deps.db, workspaceId, accountId)
  const platform = row.platform
  const connection = row.connection
  if (rulesFor(platform).options.pinboardNetBoards === null) {
    throw new AppError(
      'invalid_option',
      `Account ${row.id} is a ${platform} account; only PINBOARD_NET accounts have boards.`,
      {
        details: [{ path: 'id', platform }],
      },
    )
  }
  const adapter = deps.networks.adapterFor(platform, connection)
  if (!adapter?.listBoards) {
    throw new AppError(
      'invalid_option',
      `Boards of ${platform} accounts connected through ${connection} cannot be listed yet: this service has no adapter for that connection.`,
      {
        details: [{ path: 'id', platform }],
      },
    )
  }
  const read = { what: 'the boards', path: 'id', platform }
  return readFromNetwork(deps, row, { adapter, read, call: (input) => adapter.listBoards!(input) })
}

/**
 * `pinboardNetBoards` entries whose board is not one of their account's boards: 422
 * `invalid_option` naming `pinboardNetBoards.<accountId>`, checked through the same listing as
 * `GET /v1/accounts/{id}/boards`.
 * - SANDBOX accounts: their boards are local and cheap, so every save is checked, drafts too.
 * - Real accounts: checking is a network call, made only when the post is to go out (schedule,
 *   queue, now), not for drafts. When the boards cannot be listed (network down, rate limited,
 *   credentials refused), the board is accepted and the publish decides: a create is not refused
 *   for what the network could not tell us.
 * Entries for accounts that are not the post's pinboard accounts are post validation's to refuse.
 */
export async function assertBoardsOfAccounts(
  deps: Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock'>,
  workspaceId: string,
  accounts: Array<{ id: string; platform: string; connection: string }>,
  boards: Record<string, string> | null | undefined,
  intent: 'draft' | 'publish',
): Promise<void> {
  const details = []
  for (const [accountId, boardId] of Object.entries(boards ?? {})) {
    const account = accounts.find((a) => a.id === accountId)
    if (account?.platform !== 'PINBOARD_NET' || boardId.trim() === '') continue
    if (account.connection !== 'SANDBOX' && intent === 'draft') continue
    const listed = await listedNow(() => listAccountBoards(deps, workspaceId, accountId))
    if (listed === null || listed.some((b) => b.id === boardId)) continue
    details.push({
      path: `pinboardNetBoards.${accountId}`,
      code: 'invalid_option' as const,
      accountId,
      platform: account.platform,
      message: `Board ${boardId} is not one of account ${accountId}'s boards; pick one from GET /v1/accounts/${accountId}/boards.`,
    })
  }
  refuseUnlisted(details)
}
