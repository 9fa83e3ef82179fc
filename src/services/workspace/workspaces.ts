import {
  findPlanId,
  insertWorkspace,
  selectPlanIds,
  selectWorkspaceOverview,
  selectWorkspaces,
  workspaceExists,
} from '../../db/queries/workspaces'
import type { Db, DbOrTx } from '../../db/types'
import { AppError } from '../../domain/errors'
import { newId } from '../../lib/ids'
import { isValidTimeZone } from '../../lib/timezone'

export interface PlanView {
  id: string
  name: string
  limits: { socialAccounts: number; seats: number; monthlyPosts: number }
}

export interface WorkspaceOverview {
  workspaceId: string
  name: string
  timezone: string
  /** Every post must be approved before it goes out (docs/decisions.md, "Approvals"). */
  approvalRequired: boolean
  plan: PlanView
  usage: { socialAccounts: number; postsThisMonth: number; seats: number }
  stats: { accounts: number; scheduled: number }
}

export { workspaceExists }

export async function createWorkspace(db: DbOrTx, input: { name: string; planId?: string; timezone?: string }) {
  const timezone = input.timezone ?? 'UTC'
  if (!isValidTimeZone(timezone)) {
    throw new AppError('invalid_request', `Unknown time zone "${timezone}"; use an IANA name such as Europe/Berlin.`, {
      details: [{ path: 'timezone' }],
    })
  }
  const planId = input.planId ?? 'pro'
  if (!(await findPlanId(db, planId))) {
    const plans = await selectPlanIds(db)
    throw new AppError('invalid_request', `Unknown plan "${planId}"; the plans are ${plans.join(', ')}.`, {
      details: [{ path: 'plan' }],
    })
  }
  return insertWorkspace(db, { id: newId('workspace'), name: input.name, planId, timezone })
}

export interface WorkspaceView {
  id: string
  name: string
  plan: string
  timezone: string
  createdAt: string
}

export const toWorkspaceView = (ws: {
  id: string
  name: string
  planId: string
  timezone: string
  createdAt: Date
}): WorkspaceView => ({
  id: ws.id,
  name: ws.name,
  plan: ws.planId,
  timezone: ws.timezone,
  createdAt: ws.createdAt.toISOString(),
})

/** Every workspace of the database, oldest first: for the operator (the CLI), never through the API. */
export async function listWorkspaces(db: Db): Promise<WorkspaceView[]> {
  return (await selectWorkspaces(db)).map(toWorkspaceView)
}

/** Counts in the same terms as plan enforcement: one statement, whatever the workspace size. */
export async function getWorkspaceOverview(db: Db, workspaceId: string, now: Date): Promise<WorkspaceOverview> {
  const row = await selectWorkspaceOverview(db, workspaceId, now)
  if (!row) throw new AppError('not_found', 'Workspace not found.')
  return {
    workspaceId,
    name: row.workspace.name,
    timezone: row.workspace.timezone,
    approvalRequired: row.workspace.approvalRequired,
    plan: {
      id: row.plan.id,
      name: row.plan.name,
      limits: { socialAccounts: row.plan.socialAccounts, seats: row.plan.seats, monthlyPosts: row.plan.monthlyPosts },
    },
    usage: { socialAccounts: row.connected, postsThisMonth: row.postsThisMonth, seats: row.members },
    stats: { accounts: row.allAccounts, scheduled: row.scheduled },
  }
}
