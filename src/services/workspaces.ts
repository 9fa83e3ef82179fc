import { eq, sql } from 'drizzle-orm'
import { accounts, plans, posts, workspaces } from '../db/schema'
import type { Db } from '../db/types'
import { AppError } from '../domain/errors'
import { newId } from '../lib/ids'
import { isValidTimeZone } from '../lib/timezone'
import { monthStartIn } from './workspace-lock'

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

export async function createWorkspace(db: Db, input: { name: string; planId?: string; timezone?: string }) {
  const timezone = input.timezone ?? 'UTC'
  if (!isValidTimeZone(timezone)) {
    throw new AppError('invalid_request', `Unknown time zone "${timezone}"; use an IANA name such as Europe/Berlin.`, {
      details: [{ path: 'timezone' }],
    })
  }
  const planId = input.planId ?? 'pro'
  const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId))
  if (!plan) throw new AppError('invalid_request', `Unknown plan "${planId}".`, { details: [{ path: 'plan' }] })
  const [row] = await db
    .insert(workspaces)
    .values({ id: newId('workspace'), name: input.name, planId, timezone })
    .returning()
  return row!
}

/** Counts in the same terms as plan enforcement: one statement, whatever the workspace size. */
export async function getWorkspaceOverview(db: Db, workspaceId: string, now: Date): Promise<WorkspaceOverview> {
  const monthStart = monthStartIn(workspaces.timezone, now)
  const [row] = await db
    .select({
      workspace: workspaces,
      plan: plans,
      connected:
        sql<number>`(select count(*) from ${accounts} where ${accounts.workspaceId} = ${workspaces.id} and ${accounts.status} <> 'DISCONNECTED')`.mapWith(
          Number,
        ),
      allAccounts:
        sql<number>`(select count(*) from ${accounts} where ${accounts.workspaceId} = ${workspaces.id})`.mapWith(
          Number,
        ),
      postsThisMonth:
        sql<number>`(select count(*) from ${posts} where ${posts.workspaceId} = ${workspaces.id} and ${posts.createdAt} >= ${monthStart})`.mapWith(
          Number,
        ),
      scheduled:
        sql<number>`(select count(*) from ${posts} where ${posts.workspaceId} = ${workspaces.id} and ${posts.status} = 'SCHEDULED')`.mapWith(
          Number,
        ),
    })
    .from(workspaces)
    .innerJoin(plans, eq(plans.id, workspaces.planId))
    .where(eq(workspaces.id, workspaceId))
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
