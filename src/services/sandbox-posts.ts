/** The simulated network's public post page (`GET /sandbox/posts/{id}`): the thread it shows. */
import { createDrizzleSandboxStore } from '../db/queries/sandbox-posts'
import type { Deps } from '../deps'
import type { SandboxThread } from '../domain/sandbox-posts'
import { loadSandboxThread } from '../networks/sandbox/thread'

/** Null for an id the simulated network never issued (or deleted). */
export function sandboxPostThread(deps: Pick<Deps, 'db'>, id: string): Promise<SandboxThread | null> {
  return loadSandboxThread(createDrizzleSandboxStore(deps.db), id)
}
