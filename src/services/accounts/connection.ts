/**
 * Connecting a real network account (`account add --connection`): the credentials are checked
 * against the fields of networks/credentials.ts, then the network is called once to confirm them
 * and to say whose they are; only then is the account stored, its credentials encrypted, with the
 * network's own name and id. Nothing is stored when the network refuses them, nor when the address
 * of the account's own server is not public (networks/outbound.ts): that one is never called.
 */
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import { checkCredentials, connectionsOf } from '../../networks/credentials'
import type { VerifiedAccount } from '../../networks/adapter'
import { NetworkFailure } from '../../networks/http'
import type { Connection, PlatformId } from '../../domain/vocabulary'
import { insertAccount, type AccountRecord } from './accounts'

export interface ConnectAccountInput {
  workspaceId: string
  platform: PlatformId
  connection: Connection
  credentials: unknown
  /** Used only when the network reports no name of its own. */
  username?: string
}

export async function connectAccount(
  deps: Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock'>,
  input: ConnectAccountInput,
): Promise<AccountRecord> {
  const verified = await verifyConnection(deps, input)
  return insertAccount(deps.db, deps.cipher, {
    workspaceId: input.workspaceId,
    platform: input.platform,
    connection: input.connection,
    username: verified.username || input.username || verified.externalId,
    externalId: verified.externalId,
    credentials: verified.credentials,
    captionMaxLength: verified.captionMaxLength ?? null,
  })
}

/**
 * Checks the credentials' fields, the address of the account's own server, then asks the network
 * whose they are; stores nothing. A refusal is a 400 in the network's words.
 */
export async function verifyConnection(
  deps: Pick<Deps, 'networks' | 'clock'>,
  input: Omit<ConnectAccountInput, 'workspaceId' | 'username'>,
): Promise<VerifiedAccount> {
  const { platform, connection } = input
  if (connection === 'SANDBOX') throw new AppError('invalid_request', 'SANDBOX accounts are added without credentials.')
  const checked = checkCredentials(platform, connection, input.credentials, {
    allowHttp: deps.networks.allowPrivateUrls === true,
  })
  if (!checked.ok) {
    throw new AppError('invalid_request', `Invalid ${platform} credentials: ${checked.problems.join('; ')}`, {
      details: checked.problems.map((message) => ({
        path: `credentials.${message.split(':', 1)[0]}`,
        message,
        platform,
      })),
    })
  }
  const adapter = deps.networks.adapterFor(platform, connection)
  if (!adapter?.verifyCredentials) {
    throw new AppError(
      'invalid_request',
      `${platform} accounts cannot be connected through ${connection}; it connects through ${connectionsOf(platform).join(' or ')}.`,
    )
  }
  // The account's own server (instanceUrl, webhookUrl, serviceUrl) must be public before it is ever called.
  const refused = await deps.networks.checkAccountAddress?.(platform, connection, checked.credentials)
  if (refused) {
    throw new AppError('invalid_request', `Invalid ${platform} credentials: ${refused.message}`, {
      details: [{ path: `credentials.${refused.field}`, message: refused.message, platform }],
    })
  }
  try {
    return await adapter.verifyCredentials({
      connection,
      credentials: checked.credentials,
      fetch: deps.networks.fetch,
      baseUrl: deps.networks.baseUrlFor(platform, connection, checked.credentials),
      now: deps.clock.now(),
    })
  } catch (err) {
    if (err instanceof NetworkFailure)
      throw new AppError('invalid_request', `${platform} did not confirm the credentials: ${err.message}`)
    throw err
  }
}
