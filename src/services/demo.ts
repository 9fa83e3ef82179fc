import { countWorkspaces } from '../db/queries/workspaces'
import type { Deps } from '../deps'
import { PLATFORM_IDS } from '../domain/vocabulary'
import { addSandboxAccount } from './accounts'
import { createToken } from './tokens'
import { createWorkspace } from './workspaces'

export interface DemoWorkspace {
  workspaceId: string
  token: string
  accounts: number
}

/**
 * On an empty database: a demo workspace on the `agency` plan with one `SANDBOX` account per
 * platform id, and a token that is returned once (`npm start` prints it).
 * Returns null when the database already has a workspace.
 */
export async function bootstrapDemoWorkspace(deps: Pick<Deps, 'db' | 'cipher'>): Promise<DemoWorkspace | null> {
  if ((await countWorkspaces(deps.db)) > 0) return null
  const workspace = await createWorkspace(deps.db, { name: 'Demo workspace', planId: 'agency', timezone: 'UTC' })
  for (const platform of PLATFORM_IDS) {
    await addSandboxAccount(deps.db, deps.cipher, {
      workspaceId: workspace.id,
      platform,
      username: `demo_${platform.toLowerCase()}`,
    })
  }
  const token = await createToken(deps.db, workspace.id, 'demo')
  return { workspaceId: workspace.id, token: token.token, accounts: PLATFORM_IDS.length }
}
