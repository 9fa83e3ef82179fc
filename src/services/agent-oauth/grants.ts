/**
 * The workspaces a token reaches. A personal API token reaches its own workspace. An agent's OAuth
 * grant covers the workspaces its user ticked at consent (the first is its default), each only while
 * that user is still a member there: memberships are read at every call, so a revoked one takes
 * effect at once. A workspace outside the grant, or one the user has left, is `not_found`, as another
 * tenant's data is. Each call notes the grant's use in the workspace it works in.
 */
import { selectGrantWorkspaces, touchGrantWorkspace } from '../../db/queries/agent-grants'
import { findWorkspaceName } from '../../db/queries/workspaces'
import type { DbOrTx } from '../../db/types'
import type { Deps } from '../../deps'
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
  return liveOf(await selectGrantWorkspaces(db, holder.tokenId))
}

type GrantRow = Awaited<ReturnType<typeof selectGrantWorkspaces>>[number]

/** The grant's workspaces its user is still a member of; `default` only for the first ticked. */
const liveOf = (rows: GrantRow[]): ReachableWorkspace[] =>
  rows.flatMap((r, position) =>
    r.role === null ? [] : [{ workspaceId: r.workspaceId, name: r.name, role: r.role, default: position === 0 }],
  )

/** A grant's use is noted per workspace, at most this often, so calls do not all become writes. */
const LAST_USED_RESOLUTION_MS = 60_000

async function noteUse(
  deps: Pick<Deps, 'db' | 'clock'>,
  use: { tokenId: string; workspaceId: string; last: Date | null | undefined },
) {
  const now = deps.clock.now()
  if (use.last && now.getTime() - use.last.getTime() <= LAST_USED_RESOLUTION_MS) return
  const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS)
  await touchGrantWorkspace(deps.db, { tokenId: use.tokenId, workspaceId: use.workspaceId, now, stale })
}

const namesOf = (reachable: ReachableWorkspace[]) =>
  reachable.length === 0 ? 'none is left' : reachable.map((w) => `${w.workspaceId} (${w.name})`).join(', ')

/**
 * The workspace a call works in: `requested` when the token reaches it, else its default. Anything
 * else is `not_found`, naming the workspaces it does reach.
 */
export async function chooseWorkspace(
  deps: Pick<Deps, 'db' | 'clock'>,
  holder: TokenHolder,
  requested: string | undefined,
): Promise<string> {
  if (!holder.agent) {
    if (requested === undefined || requested === holder.workspaceId) return holder.workspaceId
    throw new AppError('not_found', 'This token reaches its own workspace only: leave workspaceId out.', {
      details: [{ path: 'workspaceId', message: 'Not a workspace of this token.' }],
    })
  }
  const rows = await selectGrantWorkspaces(deps.db, holder.tokenId)
  const reachable = liveOf(rows)
  const chosen =
    requested === undefined ? reachable.find((w) => w.default) : reachable.find((w) => w.workspaceId === requested)
  if (chosen) {
    const last = rows.find((r) => r.workspaceId === chosen.workspaceId)?.lastUsedAt
    await noteUse(deps, { tokenId: holder.tokenId, workspaceId: chosen.workspaceId, last })
    return chosen.workspaceId
  }
  const message =
    requested === undefined
      ? `The grant's default workspace is no longer open to it; pass workspaceId, one of: ${namesOf(reachable)}.`
      : `No workspace ${requested} in this grant; the workspaces it reaches: ${namesOf(reachable)}.`
  throw new AppError('not_found', message, {
    details: [{ path: 'workspaceId', message: 'Not a workspace of this grant.' }],
  })
}
