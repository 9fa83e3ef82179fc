import { sql } from 'drizzle-orm'
import { index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { posts } from './posts'
import { ts, workspaces } from './workspaces'

/** A label posts are tagged with (a campaign). */
export const labels = pgTable(
  'labels',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull().default('#64748b'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('labels_workspace_name_uq').on(t.workspaceId, sql`lower(${t.name})`)],
)

/** Which labels a post carries. */
export const postLabels = pgTable(
  'post_labels',
  {
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    labelId: text('label_id')
      .notNull()
      .references(() => labels.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.labelId] }), index('post_labels_label_idx').on(t.workspaceId, t.labelId)],
)
