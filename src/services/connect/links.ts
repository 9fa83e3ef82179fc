/**
 * Hosted connect links (`POST /v1/accounts/connect`, `POST /v1/accounts/{id}/reconnect`): a
 * single-use link, valid 30 minutes, to our connect page, for whoever owns the social account.
 * Only the token's SHA-256 is stored, with the account group a new account joins (link-group.ts).
 * A network is connected on the page through its OAuth flow, a form (networks without OAuth), or
 * the sandbox's simulated consent; one this service has no OAuth client for is refused here,
 * naming the configuration keys, never handed out as a broken link.
 */
import { insertConnectLink } from '../../db/queries/connect-links'
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import type { Connection, PlatformId } from '../../domain/vocabulary'
import { sha256Hex } from '../../lib/crypto'
import { newId, randomBase62 } from '../../lib/ids'
import { connectionsOf } from '../../networks/credentials'
import { FEDERATED_OAUTH } from '../../networks/adapters/federated/oauth'
import type { OAuthProvider } from '../../networks/oauth-connect'
import { OAUTH_PROVIDERS } from '../../networks/oauth-providers'
import type { Viewer } from '../access/visibility'
import { getAccountRow } from '../accounts/accounts'
import { groupOfNewAccount } from './link-group'
import { oauthClientOf } from './oauth-context'

export const LINK_LIFETIME_MS = 30 * 60_000

/** Connections whose credentials the owner types into a form on the page (no OAuth at the network). */
const FORM_CONNECTIONS: readonly Connection[] = [
  'APP_PASSWORD',
  'BOT_TOKEN',
  'WEBHOOK',
  'API_KEY',
  'REMOTE_SIGNER',
  'PRIVATE_KEY',
]

export type ConnectMethod =
  | { kind: 'sandbox' }
  | { kind: 'oauth'; provider: OAuthProvider }
  /** OAuth on the owner's own server (the federated network): they name it first. */
  | { kind: 'federated'; provider: OAuthProvider }
  | { kind: 'form' }

/** How the page connects this platform and connection; null when it cannot (yet). */
export function connectMethodOf(platform: PlatformId, connection: Connection): ConnectMethod | null {
  if (connection === 'SANDBOX') return { kind: 'sandbox' }
  if (platform === FEDERATED_OAUTH.platform && connection === FEDERATED_OAUTH.connection)
    return { kind: 'federated', provider: FEDERATED_OAUTH }
  const provider = OAUTH_PROVIDERS[platform]
  if (provider && provider.connection === connection) return { kind: 'oauth', provider }
  if (FORM_CONNECTIONS.includes(connection) && connectionsOf(platform).includes(connection)) return { kind: 'form' }
  return null
}

/** The configuration keys a network's OAuth client needs that are not set; [] when it is configured. */
export function missingClientKeys(settings: Deps['settings'], platform: PlatformId): string[] {
  const client = oauthClientOf(settings, platform)
  return [...(client ? [] : [`${platform}_CLIENT_ID`]), ...(client?.clientSecret ? [] : [`${platform}_CLIENT_SECRET`])]
}

/**
 * The redirect URL if its origin is one this deployment allows: those of CONNECT_REDIRECT_ORIGINS,
 * and its own (`baseUrl`, where the web dashboard lives); else refused.
 */
function allowedRedirect(settings: Deps['settings'], redirectUrl: string | undefined, baseUrl: string): string | null {
  if (redirectUrl === undefined) return null
  const configured = settings.connectRedirectOrigins ?? []
  const allowed = [...configured, new URL(baseUrl).origin]
  let origin: string
  try {
    const url = new URL(redirectUrl)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('scheme')
    origin = url.origin
  } catch {
    throw new AppError('invalid_request', 'redirectUrl must be an absolute http(s) URL.', {
      details: [{ path: 'redirectUrl', message: 'must be an absolute http(s) URL' }],
    })
  }
  if (!allowed.includes(origin)) {
    const message =
      configured.length === 0
        ? `redirectUrl is not accepted: this deployment allows no redirect origin but its own (${allowed.join(', ')}; CONNECT_REDIRECT_ORIGINS adds more); leave it out to show our own result page.`
        : `redirectUrl must be on one of the allowed origins: ${allowed.join(', ')}.`
    throw new AppError('invalid_option', message, { details: [{ path: 'redirectUrl', message }] })
  }
  return redirectUrl
}

export interface ConnectLinkInput {
  platform: PlatformId
  connection?: Connection
  redirectUrl?: string
  /** The account group the new account joins (`groupOfNewAccount` decides, by who asks). */
  groupId?: string
}

export interface ConnectLink {
  url: string
  expiresAt: string
}

/** Checks that the page can connect this platform and connection now; the connection it will use. */
function checkConnectable(settings: Deps['settings'], platform: PlatformId, connection: Connection): void {
  if (connection !== 'SANDBOX' && !connectionsOf(platform).includes(connection)) {
    throw new AppError(
      'invalid_request',
      `${platform} connects through ${connectionsOf(platform).join(' or ')} (or SANDBOX), not ${connection}.`,
      { details: [{ path: 'connection', message: `not a connection of ${platform}`, platform }] },
    )
  }
  const method = connectMethodOf(platform, connection)
  if (!method) {
    throw new AppError(
      'invalid_option',
      `${platform} through ${connection} cannot be connected on the hosted page yet; add it with the CLI (account add).`,
      { details: [{ path: 'platform', message: 'no hosted connect for this network and connection', platform }] },
    )
  }
  if (method.kind === 'oauth') {
    const missing = missingClientKeys(settings, platform)
    if (missing.length > 0) {
      throw new AppError(
        'invalid_option',
        `This deployment has no OAuth client for ${platform}: set ${missing.join(' and ')} (redirect URI: <PUBLIC_URL>/oauth/callback/${platform}).`,
        { details: [{ path: 'platform', message: `missing ${missing.join(', ')}`, platform, missing }] },
      )
    }
  }
}

async function storeLink(
  deps: Pick<Deps, 'db' | 'clock' | 'settings'>,
  values: {
    workspaceId: string
    platform: PlatformId
    connection: Connection
    redirectUrl: string | null
    /** A reconnect: the account it renews; else null. */
    accountId: string | null
    /** A new account's group; null for none, and for a reconnect (its groups stay as they are). */
    groupId: string | null
  },
  baseUrl: string,
): Promise<ConnectLink> {
  const token = randomBase62(43)
  const expiresAt = new Date(deps.clock.now().getTime() + LINK_LIFETIME_MS)
  await insertConnectLink(deps.db, {
    id: newId('connectLink'),
    ...values,
    tokenHash: await sha256Hex(token),
    expiresAt,
  })
  return { url: `${baseUrl.replace(/\/+$/, '')}/connect/${token}`, expiresAt: expiresAt.toISOString() }
}

/** A link that connects a new account (or renews the workspace's account of the same identity). */
export async function createConnectLink(
  deps: Pick<Deps, 'db' | 'clock' | 'settings'>,
  viewer: Viewer,
  input: ConnectLinkInput,
  baseUrl: string,
): Promise<ConnectLink> {
  const { platform } = input
  const connection = input.connection ?? OAUTH_PROVIDERS[platform]?.connection ?? connectionsOf(platform)[0]!
  checkConnectable(deps.settings, platform, connection)
  const redirectUrl = allowedRedirect(deps.settings, input.redirectUrl, baseUrl)
  const groupId = await groupOfNewAccount(deps.db, viewer, input.groupId)
  const { workspaceId } = viewer
  return storeLink(deps, { workspaceId, platform, connection, redirectUrl, accountId: null, groupId }, baseUrl)
}

/** A link that renews this account's credentials (the same account id; the same network identity only). */
export async function createReconnectLink(
  deps: Pick<Deps, 'db' | 'clock' | 'settings'>,
  workspaceId: string,
  accountId: string,
  input: { redirectUrl?: string },
  baseUrl: string,
): Promise<ConnectLink> {
  const account = await getAccountRow(deps.db, workspaceId, accountId)
  checkConnectable(deps.settings, account.platform, account.connection)
  const redirectUrl = allowedRedirect(deps.settings, input.redirectUrl, baseUrl)
  const { platform, connection } = account
  return storeLink(
    deps,
    { workspaceId, platform, connection, redirectUrl, accountId: account.id, groupId: null },
    baseUrl,
  )
}
