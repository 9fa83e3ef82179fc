import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import type { ActorKind, ActorRef } from '../../domain/access'
import { ts, workspaces } from './workspaces'

/** Who did what, when, from where: one row per change of state or administrative action. */
export const activityLog = pgTable(
  'activity_log',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
    actor: jsonb('actor').$type<ActorRef>().notNull(),
    actorKind: text('actor_kind').$type<ActorKind>().notNull(),
    actorId: text('actor_id'),
    /** Dotted, e.g. `post.created`. */
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id'),
    /** What happened, in words. */
    summary: text('summary').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
  },
  (t) => [
    index('activity_log_workspace_at_idx').on(t.workspaceId, t.at.desc(), t.id.desc()),
    index('activity_log_workspace_subject_idx').on(t.workspaceId, t.subjectId),
  ],
)
