/** The signed-in member as a service's caller: their role and group limit, named as a user in the activity log. */
import type { Caller } from '../../services/caller'
import type { PageContext } from '../pages/shared'

/** The caller the settings pages hand to the services (the same shape `/v1` builds from a token). */
export function memberCaller(c: PageContext): Caller {
  const member = c.var.member
  return {
    workspaceId: member.workspaceId,
    access: { role: member.role, groupIds: member.groupIds ?? null },
    actor: { kind: 'user', id: member.userId, name: member.name },
    userId: member.userId,
    ip: c.var.clientIp ?? null,
  }
}
