/**
 * The workspaces a token reaches. A personal API token reaches its own workspace. An agent's OAuth
 * grant covers the workspaces its user ticked at consent (the first is its default), each only while
 * that user is still a member there: memberships are read at every call, so a revoked one takes
 * effect at once. A workspace outside the grant, or one the user has left, is `not_found`, as another
 * tenant's data is.
 */
import { selectGrantWorkspaces } from '../../db/queries/agent-grants'
import { findWorkspaceName } from '../../db/queries/workspaces'
import type { DbOrTx } from '../../db/types'
import { AppError } from '../../domain/errors'
import type { MemberRole } from '../../domain/people'

/** Who holds the token: a personal token's workspace, or an agent's grant (`tokenId`) with its default. */
export interface TokenHolder {
  workspaceId: string
  tokenId: string
  agent: boolean
}

export interface ReachableWorkspace {
  workspaceId: string
  name: string
  /** The grant's user's role there now; null for a personal token (it belongs to the workspace, not a person). */
  role: MemberRole | null
  /** Where a call without `workspaceId` works. */
  default: boolean
}

/** Every workspace the token reaches now, its default first. */
export async function reachableWorkspaces(db: DbOrTx, holder: TokenHolder): Promise<ReachableWorkspace[]> {
  if (!holder.agent) {
    const name = await findWorkspaceName(db, holder.workspaceId)
    return name === null ? [] : [{ workspaceId: holder.workspaceId, name, role: null, default: true }]
  }
  const rows = await selectGrantWorkspaces(db, holder.tokenId)
  return rows.flatMap((r, position) =>
    r.role === null ? [] : [{ workspaceId: r.workspaceId, name: r.name, role: r.role, default: position === 0 }],
  )
}

const namesOf = (reachable: ReachableWorkspace[]) =>
  reachable.length === 0 ? 'none is left' : reachable.map((w) => `${w.workspaceId} (${w.name})`).join(', ')

/**
 * The workspace a call works in: `requested` when the token reaches it, else its default. Anything
 * else is `not_found`, naming the workspaces it does reach.
 */
export async function chooseWorkspace(db: DbOrTx, holder: TokenHolder, requested: string | undefined): Promise<string> {
  if (!holder.agent) {
    if (requested === undefined || requested === holder.workspaceId) return holder.workspaceId
    throw new AppError('not_found', 'This token reaches its own workspace only: leave workspaceId out.', {
      details: [{ path: 'workspaceId', message: 'Not a workspace of this token.' }],
    })
  }
  const reachable = await reachableWorkspaces(db, holder)
  const chosen =
    requested === undefined ? reachable.find((w) => w.default) : reachable.find((w) => w.workspaceId === requested)
  if (chosen) return chosen.workspaceId
  const message =
    requested === undefined
      ? `The grant's default workspace is no longer open to it; pass workspaceId, one of: ${namesOf(reachable)}.`
      : `No workspace ${requested} in this grant; the workspaces it reaches: ${namesOf(reachable)}.`
  throw new AppError('not_found', message, {
    details: [{ path: 'workspaceId', message: 'Not a workspace of this grant.' }],
  })
}
