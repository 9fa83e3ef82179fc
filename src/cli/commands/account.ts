import { CONNECTIONS, PLATFORM_IDS, SANDBOX_FAIL_MODES } from '../../domain/vocabulary'
import { connectAccount } from '../../services/account-connection'
import { addSandboxAccount } from '../../services/accounts'
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
