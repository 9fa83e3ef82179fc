/**
 * The caller of a dashboard request, for the services that record who did what: the signed-in
 * member of the page's workspace (set by `workspaceMember` in ./workspace.ts) and the request's address.
 */
import type { Context } from 'hono'
import { accessOf } from '../domain/access'
import type { Caller } from '../services/caller'
import type { DashboardEnv } from './env'

export function dashboardCaller(c: Context<DashboardEnv>): Caller {
  const member = c.var.member
  return {
    workspaceId: member.workspaceId,
    access: accessOf(member.role, member.groupIds ?? null),
    actor: { kind: 'user', id: member.userId, name: member.name },
    userId: member.userId,
    ip: c.var.clientIp ?? null,
  }
}
