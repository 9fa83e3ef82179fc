import { countWorkspaces, lockFirstWorkspaceCreation } from '../db/queries/workspaces'
import type { Deps } from '../deps'
import { PLATFORM_IDS } from '../domain/vocabulary'
import { addSandboxAccount } from './accounts/accounts'
import { randomBase62 } from '../lib/ids'
import { addMember } from './people/memberships'
import { createToken } from './tokens'
import { insertPreparedUser, prepareUser } from './people/users'
import { createWorkspace } from './workspace/workspaces'

export interface DemoWorkspace {
  workspaceId: string
  token: string
  accounts: number
  /** The demo user, owner of the workspace: sign in to the dashboard with these (the password is shown once). */
  user: { email: string; password: string }
}

/** The demo user's address: the same on every fresh database, so the README can name it. */
export const DEMO_EMAIL = 'demo@example.com'

/**
 * On an empty database: a demo workspace on the `agency` plan with one `SANDBOX` account per
 * platform id, a token and the demo user (its owner) with a password, returned once (`npm start` prints them).
 * Returns null when the database already has a workspace. All of it is one transaction under a lock
 * every server takes, so instances started together on an empty database make one demo, not one each.
 */
export async function bootstrapDemoWorkspace(
  deps: Pick<Deps, 'db' | 'cipher' | 'passwordStrength'>,
): Promise<DemoWorkspace | null> {
  if ((await countWorkspaces(deps.db)) > 0) return null
  // A random password, printed once like the token: a known default would be a door left open.
  const password = randomBase62(16)
  // Hashing is slow: done before the transaction (and its lock) opens.
  const owner = await prepareUser(deps, { email: DEMO_EMAIL, name: 'Demo owner', password })
  return deps.db.transaction(async (tx) => {
    await lockFirstWorkspaceCreation(tx)
    if ((await countWorkspaces(tx)) > 0) return null
    const workspace = await createWorkspace(tx, { name: 'Demo workspace', planId: 'agency', timezone: 'UTC' })
    for (const platform of PLATFORM_IDS) {
      await addSandboxAccount(tx, deps.cipher, {
        workspaceId: workspace.id,
        platform,
        username: `demo_${platform.toLowerCase()}`,
      })
    }
    const token = await createToken(tx, workspace.id, 'demo')
    const user = await insertPreparedUser(tx, owner)
    await addMember(tx, workspace.id, user.id, 'owner')
    return {
      workspaceId: workspace.id,
      token: token.token,
      accounts: PLATFORM_IDS.length,
      user: { email: DEMO_EMAIL, password },
    }
  })
}
