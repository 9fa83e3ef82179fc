import { index, pgTable, text } from 'drizzle-orm/pg-core'
import { ts } from './workspaces'

/**
 * The Node servers running on this database, one row per boot (`<instance>/<boot>`, the holder its
 * claims name): each beats every few seconds (`last_seen_at`, the database's own clock), removes
 * its row on a clean stop, and a live server resolves the claims of a boot that stopped beating
 * (docs/architecture.md, "Several servers"). Workers write none.
 */
export const serverInstances = pgTable(
  'server_instances',
  {
    holder: text('holder').primaryKey(),
    startedAt: ts('started_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  },
  (t) => [index('server_instances_last_seen_idx').on(t.lastSeenAt)],
)
