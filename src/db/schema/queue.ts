import { index, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { ts, workspaces } from './workspaces'

/** The weekly posting schedule: weekday 0 = Sunday, minutes after local midnight in the workspace zone. */
export const queueSlots = pgTable(
  'queue_slots',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    weekday: smallint('weekday').notNull(),
    minutes: smallint('minutes').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('queue_slots_uq').on(t.workspaceId, t.weekday, t.minutes),
    index('queue_slots_workspace_idx').on(t.workspaceId),
  ],
)
