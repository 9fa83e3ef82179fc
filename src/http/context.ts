import type { Deps } from '../deps'
import type { Access, ActorRef } from '../domain/access'
import type { IdempotentWrite } from '../services/idempotency'

export interface AuthContext {
  /** The token's workspace; for an agent's grant, its default workspace. */
  workspaceId: string
  tokenId: string
  /** An agent's OAuth grant, which may cover several workspaces of its user (`/mcp` only). */
  agent: boolean
  /** What the caller may do: the token's role and groups (an agent's: its user's membership now). */
  access: Access
  /** Who is calling, as the activity log names them. */
  actor: ActorRef
  /** The person behind the token (a personal token's creator, an agent grant's user), when known. */
  userId: string | null
}

/** Hono environment of every route: the deps, the request id, the client address, and (behind auth) the caller's workspace. */
export interface AppEnv {
  Variables: {
    deps: Deps
    requestId: string
    /** The address rate limits count by: `CF-Connecting-IP` on Workers, the socket (or a trusted proxy's header) on Node. */
    clientIp: string
    auth: AuthContext
    /** The request's Idempotency-Key, for an operation that stores its answer in its own transaction. */
    idempotency: IdempotentWrite | undefined
    /**
     * Set by a route whose body is written after the handler returns (the event stream): settles
     * once it is done, and the request's clean-up (a Worker's database pool) waits for it.
     */
    bodyDone: Promise<void> | undefined
  }
}
