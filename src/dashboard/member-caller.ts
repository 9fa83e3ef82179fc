/** The signed-in member as the services' caller: a person, with their role, groups and address. */
import type { Context } from 'hono'
import { accessOf } from '../domain/access'
import type { Caller } from '../services/caller'
import type { DashboardEnv } from './env'

export function memberCaller(c: Context<DashboardEnv>): Caller {
  const { member, clientIp } = c.var
  return {
    workspaceId: member.workspaceId,
    access: accessOf(member.role, member.groupIds ?? null),
    actor: { kind: 'user', id: member.userId, name: member.name },
    userId: member.userId,
    ip: clientIp ?? null,
  }
}
