import { collectAnalytics } from '../../services/analytics/collect'
import { defineCommand } from '../command'
import { requireWorkspace } from './token'

/** Opening the database applies pending migrations; this command says which that were. */
export const dbMigrate = defineCommand({
  summary: 'Apply pending database migrations (every command does so first); names those applied',
  options: {},
  examples: ['db migrate'],
  run: async ({ migrationsApplied }) => ({
    migrated: true,
    applied: migrationsApplied,
    status: migrationsApplied.length === 0 ? 'up to date' : `applied ${migrationsApplied.length}`,
  }),
})

/** One analytics collection pass now: the same code the scheduled job runs. */
export const analyticsCollect = defineCommand({
  summary: 'Run one analytics collection pass now (what the every-minute job runs)',
  options: { workspace: { type: 'string', value: 'ws_…', description: 'only this workspace (default: all)' } },
  examples: ['analytics collect --workspace ws_…'],
  run: async ({ deps }, o) => {
    if (o.workspace) await requireWorkspace(deps, o.workspace)
    const { networks, logger } = deps
    const now = deps.clock.now()
    const report = await collectAnalytics(
      { db: deps.db, cipher: deps.cipher, networks, logger, clock: deps.clock },
      { ...(o.workspace ? { workspaceId: o.workspace } : {}), now },
    )
    return { ...report, workspaceId: o.workspace ?? null, collectedAt: now.toISOString() }
  },
})
