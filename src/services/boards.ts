import type { Deps } from '../deps'
import { AppError } from '../domain/errors'
import type { Board } from '../networks/adapter'
import { rulesFor } from '../domain/rules/index'
import { NetworkFailure } from '../networks/http'
import { getAccountRow } from './accounts'
import { usableCredentials } from './network-credentials'

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
  const usable = await usableCredentials(deps, row, adapter)
  if (!usable.ok)
    throw new AppError('invalid_option', `${platform} did not accept the account's credentials: ${usable.message}`, {
      details: [{ path: 'id', platform }],
    })
  const credentials = usable.credentials
  try {
    return await adapter.listBoards({
      accountId: row.id,
      connection,
      credentials,
      fetch: deps.networks.fetch,
      baseUrl: deps.networks.baseUrlFor(platform, connection, credentials),
    })
  } catch (err) {
    if (!(err instanceof NetworkFailure)) throw err
    if (err.kind === 'rate_limited')
      throw new AppError('rate_limited', `${err.message} Try listing the boards again later.`, {
        retryAfterSec: err.retryAfterSec ?? 60,
      })
    const what = err.kind === 'auth_expired' ? `${err.message} (reconnect the account)` : err.message
    throw new AppError('invalid_option', `The boards could not be listed: ${what}`, {
      details: [{ path: 'id', platform }],
    })
  }
}
