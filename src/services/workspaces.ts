import { findPlanId, insertWorkspace, selectWorkspaceOverview, workspaceExists } from '../db/queries/workspaces'
import type { Db } from '../db/types'
import { AppError } from '../domain/errors'
import { newId } from '../lib/ids'
import { isValidTimeZone } from '../lib/timezone'

export interface PlanView {
  id: string
  name: string
  limits: { socialAccounts: number; seats: number; monthlyPosts: number }
}

export interface WorkspaceOverview {
  workspaceId: string
  name: string
  timezone: string
  plan: PlanView
  usage: { socialAccounts: number; postsThisMonth: number }
  stats: { accounts: number; scheduled: number }
}

export { workspaceExists }

export async function createWorkspace(db: Db, input: { name: string; planId?: string; timezone?: string }) {
  const timezone = input.timezone ?? 'UTC'
  if (!isValidTimeZone(timezone)) {
    throw new AppError('invalid_request', `Unknown time zone "${timezone}"; use an IANA name such as Europe/Berlin.`, {
      details: [{ path: 'timezone' }],
    })
  }
  const planId = input.planId ?? 'pro'
  if (!(await findPlanId(db, planId)))
    throw new AppError('invalid_request', `Unknown plan "${planId}".`, { details: [{ path: 'plan' }] })
  return insertWorkspace(db, { id: newId('workspace'), name: input.name, planId, timezone })
}

/** Counts in the same terms as plan enforcement: one statement, whatever the workspace size. */
export async function getWorkspaceOverview(db: Db, workspaceId: string, now: Date): Promise<WorkspaceOverview> {
  const row = await selectWorkspaceOverview(db, workspaceId, now)
  if (!row) throw new AppError('not_found', 'Workspace not found.')
  return {
    workspaceId,
    name: row.workspace.name,
    timezone: row.workspace.timezone,
    plan: {
      id: row.plan.id,
      name: row.plan.name,
      limits: { socialAccounts: row.plan.socialAccounts, seats: row.plan.seats, monthlyPosts: row.plan.monthlyPosts },
    },
    usage: { socialAccounts: row.connected, postsThisMonth: row.postsThisMonth },
    stats: { accounts: row.allAccounts, scheduled: row.scheduled },
  }
}
