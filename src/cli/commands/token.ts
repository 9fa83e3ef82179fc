import { createToken, listTokens, revokeToken } from '../../services/tokens'
import { workspaceExists } from '../../services/workspace/workspaces'
import { CliError } from '../args'
import { type CliDeps, defineCommand } from '../command'

export async function requireWorkspace(deps: CliDeps, id: string): Promise<void> {
  if (!(await workspaceExists(deps.db, id))) throw new CliError(`no workspace with id ${id}`)
}

const workspace = { type: 'string', required: true, value: 'ws_…', description: 'the workspace' } as const

export const tokenCreate = defineCommand({
  summary: 'Create an API token; prints it once (only its hash is kept)',
  options: {
    workspace,
    name: { type: 'string', value: '<name>', description: 'a name to recognise it (default: cli)' },
  },
  examples: ['token create --workspace ws_… --name ci'],
  run: async ({ deps }, o) => {
    await requireWorkspace(deps, o.workspace)
    const token = await createToken(deps.db, o.workspace, o.name ?? 'cli')
    return { ...token, workspaceId: o.workspace }
  },
})

export const tokenList = defineCommand({
  summary: "List a workspace's tokens (never the tokens themselves): created, last used, revoked",
  options: { workspace },
  examples: ['token list --workspace ws_…'],
  run: async ({ deps }, o) => {
    await requireWorkspace(deps, o.workspace)
    return listTokens(deps.db, o.workspace)
  },
})

export const tokenRevoke = defineCommand({
  summary: 'Revoke a token; it stops working at once',
  options: { id: { type: 'string', required: true, value: 'tok_…', description: 'the token id' } },
  examples: ['token revoke --id tok_…'],
  run: async ({ deps }, o) => {
    if (!(await revokeToken(deps.db, o.id, deps.clock.now()))) throw new CliError(`no live token with id ${o.id}`)
    return { id: o.id, revoked: true }
  },
})
