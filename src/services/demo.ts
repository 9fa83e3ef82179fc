import { count } from 'drizzle-orm'
import { workspaces } from '../db/schema'
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
 * platform id, and a token that is returned once (contract.md, "Local operation").
 * Returns null when the database already has a workspace.
 */
export async function bootstrapDemoWorkspace(deps: Pick<Deps, 'db' | 'cipher'>): Promise<DemoWorkspace | null> {
  const [existing] = await deps.db.select({ n: count() }).from(workspaces)
  if ((existing?.n ?? 0) > 0) return null
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
