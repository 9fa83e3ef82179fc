import type { Deps } from '../deps'
import { AppError } from '../domain/errors'
import { CONNECTIONS, PLATFORM_IDS, SANDBOX_FAIL_MODES } from '../domain/vocabulary'
import { connectAccount } from '../services/account-connection'
import { addSandboxAccount } from '../services/accounts'
import { collectAnalytics } from '../services/analytics/collect'
import { createToken, revokeToken } from '../services/tokens'
import { createWorkspace, workspaceExists } from '../services/workspaces'
import { CliError, parseOptions } from './args'

type CliDeps = Pick<Deps, 'db' | 'cipher' | 'clock' | 'networks' | 'logger'>
export type Command = (deps: CliDeps, argv: string[]) => Promise<unknown>

async function requireWorkspace(deps: CliDeps, id: string): Promise<void> {
  if (!(await workspaceExists(deps.db, id))) throw new CliError(`no workspace with id ${id}`)
}

function oneOf<T extends string>(value: string, allowed: readonly T[], option: string): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new CliError(`--${option} must be one of ${allowed.join(', ')}`)
  return value as T
}

const workspaceCreate: Command = async (deps, argv) => {
  const o = parseOptions(argv, {
    name: { type: 'string', required: true },
    plan: { type: 'string' },
    timezone: { type: 'string' },
  })
  const ws = await createWorkspace(deps.db, {
    name: o.name,
    planId: o.plan,
    timezone: o.timezone,
  })
  return { id: ws.id, name: ws.name, plan: ws.planId, timezone: ws.timezone, createdAt: ws.createdAt.toISOString() }
}

const tokenCreate: Command = async (deps, argv) => {
  const o = parseOptions(argv, { workspace: { type: 'string', required: true }, name: { type: 'string' } })
  await requireWorkspace(deps, o.workspace)
  const token = await createToken(deps.db, o.workspace, o.name ?? 'cli')
  return { ...token, workspaceId: o.workspace }
}

const tokenRevoke: Command = async (deps, argv) => {
  const o = parseOptions(argv, { id: { type: 'string', required: true } })
  if (!(await revokeToken(deps.db, o.id, deps.clock.now()))) throw new CliError(`no live token with id ${o.id}`)
  return { id: o.id, revoked: true }
}

const accountAdd: Command = async (deps, argv) => {
  const o = parseOptions(argv, {
    workspace: { type: 'string', required: true },
    platform: { type: 'string', required: true },
    username: { type: 'string' },
    sandbox: { type: 'boolean' },
    'fail-mode': { type: 'string' },
    connection: { type: 'string' },
    credentials: { type: 'string' },
  })
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
    {
      db: deps.db,
      cipher: deps.cipher,
      clock: deps.clock,
      networks: deps.networks,
    },
    {
      workspaceId: o.workspace,
      platform,
      connection,
      credentials,
      ...(o.username ? { username: o.username } : {}),
    },
  )
}

/** One analytics collection pass now: the same code the scheduled job runs. */
const analyticsCollect: Command = async (deps, argv) => {
  const o = parseOptions(argv, { workspace: { type: 'string' } })
  if (o.workspace) await requireWorkspace(deps, o.workspace)
  const { networks, logger } = deps
  const now = deps.clock.now()
  const report = await collectAnalytics(
    { db: deps.db, cipher: deps.cipher, networks, logger, clock: deps.clock },
    { ...(o.workspace ? { workspaceId: o.workspace } : {}), now },
  )
  return { ...report, workspaceId: o.workspace ?? null, collectedAt: now.toISOString() }
}

/** Opening the database applies pending migrations; this command does only that. */
const dbMigrate: Command = async (_deps, argv) => {
  parseOptions(argv, {})
  return { migrated: true }
}

export const COMMANDS: Record<string, Command> = {
  'db migrate': dbMigrate,
  'workspace create': workspaceCreate,
  'token create': tokenCreate,
  'token revoke': tokenRevoke,
  'account add': accountAdd,
  'analytics collect': analyticsCollect,
}

/** Runs one command; AppErrors from services become CLI errors with the same message. */
export async function runCommand(deps: CliDeps, argv: string[]): Promise<unknown> {
  const name = argv.slice(0, 2).join(' ')
  const command = COMMANDS[name]
  if (!command) throw new CliError(`unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(' | ')}`)
  try {
    return await command(deps, argv.slice(2))
  } catch (err) {
    if (err instanceof AppError) throw new CliError(err.message)
    throw err
  }
}
