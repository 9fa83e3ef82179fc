import type { Deps } from '../deps'

export interface AuthContext {
  workspaceId: string
  tokenId: string
}

/** Hono environment of every route: the deps, the request id, and (behind auth) the caller's workspace. */
export interface AppEnv {
  Variables: {
    deps: Deps
    requestId: string
    auth: AuthContext
  }
}
