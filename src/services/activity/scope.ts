/**
 * How the services that existed before the activity log learn who is calling: where they took a
 * workspace id, they take a `WorkspaceScope`, either that id (the service itself acts: a job, the
 * engine, the operator's CLI) or the caller (a route, a dashboard page, an MCP tool), whose actor and
 * address the activity log records.
 */
import { type Caller, systemCaller } from '../caller'

export type WorkspaceScope = string | Caller

/** The caller a scope stands for: the service itself when only a workspace id was given. */
export const callerOfScope = (scope: WorkspaceScope): Caller =>
  typeof scope === 'string' ? systemCaller(scope) : scope
