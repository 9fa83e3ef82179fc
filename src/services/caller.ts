/**
 * Who a use case works for: the workspace, what the caller may do there, who they are (for the
 * activity log, notes and approvals) and the address they called from. Built by each surface
 * (`/v1`: http/caller.ts; the dashboard; MCP; review links) and handed to the services.
 */
import { type Access, type ActorRef, FULL_ACCESS, SYSTEM_ACTOR } from '../domain/access'

export interface Caller {
  workspaceId: string
  access: Access
  actor: ActorRef
  userId: string | null
  ip: string | null
}

/** The service itself (scheduled work, retries, the CLI): the whole workspace, no person, no address. */
export const systemCaller = (workspaceId: string): Caller => ({
  workspaceId,
  access: FULL_ACCESS,
  actor: SYSTEM_ACTOR,
  userId: null,
  ip: null,
})
