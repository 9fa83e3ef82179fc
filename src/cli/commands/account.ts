import { CONNECTIONS, PLATFORM_IDS, SANDBOX_FAIL_MODES } from '../../domain/vocabulary'
import { connectAccount } from '../../services/accounts/connection'
import { disconnectAccount } from '../../services/accounts/disconnect'
import { accountWorkspaceId, addSandboxAccount, listAccounts } from '../../services/accounts/accounts'
import { createConnectLink } from '../../services/connect/links'
import { systemCaller } from '../../services/caller'
import { CliError } from '../args'
import { defineCommand } from '../command'
import { requireWorkspace } from './token'

function oneOf<T extends string>(value: string, allowed: readonly T[], option: string): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new CliError(`--${option} must be one of ${allowed.join(', ')}`)
  return value as T
}

export const accountAdd = defineCommand({
  summary: 'Add a sandbox account, or connect a real one once its network confirms the credentials',
  options: {
    workspace: { type: 'string', required: true, value: 'ws_…', description: 'the workspace' },
    platform: { type: 'string', required: true, value: '<platform>', description: PLATFORM_IDS.join(', ') },
    username: { type: 'string', value: '<name>', description: "the account's name (required with --sandbox)" },
    sandbox: { type: 'boolean', description: 'a simulated account: no network, no credentials' },
    'fail-mode': {
      type: 'string',
      value: '<mode>',
      description: `sandbox only: ${SANDBOX_FAIL_MODES.join(', ')} (how its publishes fail)`,
    },
    connection: {
      type: 'string',
      value: '<connection>',
      description: `how a real account connects: ${CONNECTIONS.filter((c) => c !== 'SANDBOX').join(', ')}`,
    },
    credentials: {
      type: 'string',
      value: "'<json>'",
      description: 'with --connection: the fields docs/decisions.md lists for the platform and connection',
    },
  },
  examples: [
    'account add --workspace ws_… --platform PHOTO_NET --username acme --sandbox --fail-mode once',
    'account add --workspace ws_… --platform FEDERATED_NET --connection DIRECT_LOGIN ' +
      `--credentials '{"instanceUrl":"https://mastodon.social","accessToken":"…"}'`,
  ],
  run: async ({ deps }, o) => {
    const platform = oneOf(o.platform, PLATFORM_IDS, 'platform')
    await requireWorkspace(deps, o.workspace)
    if (o.sandbox) {
      if (o.connection || o.credentials) throw new CliError('--sandbox takes no --connection or --credentials')
      if (!o.username) throw new CliError('--username is required with --sandbox')
      const failMode = o['fail-mode'] === undefined ? undefined : oneOf(o['fail-mode'], SANDBOX_FAIL_MODES, 'fail-mode')
      return addSandboxAccount(deps.db, deps.cipher, {
        workspaceId: o.workspace,
        platform,
        username: o.username,
        failMode,
      })
    }
    if (!o.connection || !o.credentials)
      throw new CliError(
        "either --sandbox, or --connection with --credentials '<json>' (fields per platform: docs/decisions.md)",
      )
    if (o['fail-mode'] !== undefined) throw new CliError('--fail-mode applies to --sandbox accounts only')
    const connection = oneOf(o.connection, CONNECTIONS, 'connection')
    let credentials: unknown
    try {
      credentials = JSON.parse(o.credentials)
    } catch {
      throw new CliError('--credentials must be a JSON object')
    }
    return connectAccount(
      { db: deps.db, cipher: deps.cipher, clock: deps.clock, networks: deps.networks },
      {
        workspaceId: o.workspace,
        platform,
        connection,
        credentials,
        ...(o.username ? { username: o.username } : {}),
      },
    )
  },
})

/** Where account owners reach this service: PUBLIC_URL, else the server's default address. */
const DEFAULT_BASE_URL = 'http://127.0.0.1:8787'

export const accountConnect = defineCommand({
  summary: 'Print a hosted connect link (single use, 30 minutes) for whoever owns the account',
  options: {
    workspace: { type: 'string', required: true, value: 'ws_…', description: 'the workspace' },
    platform: { type: 'string', required: true, value: '<platform>', description: PLATFORM_IDS.join(', ') },
    connection: {
      type: 'string',
      value: '<connection>',
      description: "default the network's OAuth login, else its only connection; SANDBOX for the simulated network",
    },
    'redirect-url': {
      type: 'string',
      value: '<url>',
      description: 'where the owner goes back to (an origin of CONNECT_REDIRECT_ORIGINS)',
    },
    group: { type: 'string', value: 'grp_…', description: 'the account group the new account joins' },
  },
  examples: [
    'account connect --workspace ws_… --platform MICROBLOG_NET',
    'account connect --workspace ws_… --platform PHOTO_NET --connection SANDBOX',
  ],
  run: async ({ deps }, o) => {
    const platform = oneOf(o.platform, PLATFORM_IDS, 'platform')
    await requireWorkspace(deps, o.workspace)
    const connection = o.connection === undefined ? undefined : oneOf(o.connection, CONNECTIONS, 'connection')
    return createConnectLink(
      deps,
      systemCaller(o.workspace),
      {
        platform,
        ...(connection ? { connection } : {}),
        ...(o['redirect-url'] ? { redirectUrl: o['redirect-url'] } : {}),
        ...(o.group ? { groupId: o.group } : {}),
      },
      deps.settings.publicUrl ?? DEFAULT_BASE_URL,
    )
  },
})

export const accountList = defineCommand({
  summary: "The workspace's accounts with their health (never their credentials)",
  options: { workspace: { type: 'string', required: true, value: 'ws_…', description: 'the workspace' } },
  examples: ['account list --workspace ws_…'],
  run: async ({ deps }, o) => {
    await requireWorkspace(deps, o.workspace)
    return listAccounts(deps.db, o.workspace)
  },
})

export const accountDisconnect = defineCommand({
  summary: 'Disconnect an account: token revoked where the network can, credentials wiped, pending posts failed',
  options: { id: { type: 'string', required: true, value: 'acc_…', description: 'the account' } },
  examples: ['account disconnect --id acc_…'],
  run: async ({ deps }, o) => {
    const workspaceId = await accountWorkspaceId(deps.db, o.id)
    if (!workspaceId) throw new CliError(`no account ${o.id}`)
    const result = await disconnectAccount(deps, workspaceId, o.id)
    return { ...result.account, tokenRevoked: result.revoked, failedTargets: result.failedTargets }
  },
})
