import type { Context } from 'hono'
import type { Caller } from '../services/caller'
import type { AppEnv } from './context'

/** The caller of a `/v1` request (behind the token check): its workspace, access, actor and address. */
export function callerOf(c: Context<AppEnv>): Caller {
  const { auth, clientIp } = c.var
  return { workspaceId: auth.workspaceId, access: auth.access, actor: auth.actor, userId: auth.userId, ip: clientIp }
}
