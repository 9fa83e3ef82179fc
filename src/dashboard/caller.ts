/**
 * The signed-in member as the services' `Caller`: their workspace, role and groups (what they may
 * see and do), themselves as the actor the activity log and approvals name, and their address.
 */
import { accessOf } from '../domain/access'
import type { Caller } from '../services/caller'
import type { PageContext } from './pages/shared'

export function dashboardCaller(c: PageContext): Caller {
  const member = c.get('member')
  return {
    workspaceId: member.workspaceId,
    access: accessOf(member.role, member.groupIds ?? null),
    actor: { kind: 'user', id: member.userId, name: member.name },
    userId: member.userId,
    ip: c.get('clientIp') ?? null,
  }
}
