import { jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import type { ActorRef } from '../../domain/access'
import { accountGroups } from './groups'
import { ts, workspaces } from './workspaces'

/** A client's review link for one group: only the SHA-256 of its token is kept; expires, revocable. */
export const reviewLinks = pgTable('review_links', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  groupId: text('group_id')
    .notNull()
    .references(() => accountGroups.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  createdBy: jsonb('created_by').$type<ActorRef>().notNull(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  lastUsedAt: ts('last_used_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
})
