import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import type { ActorRef } from '../../domain/access'
import { posts } from './posts'
import { ts } from './workspaces'

/** The internal discussion of a post: never published. */
export const postNotes = pgTable(
  'post_notes',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    author: jsonb('author').$type<ActorRef>().notNull(),
    /** The author's user id when a person wrote it (who may delete it). */
    authorUserId: text('author_user_id'),
    body: text('body').notNull(),
    /** User ids mentioned in the body. */
    mentions: jsonb('mentions').$type<string[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('post_notes_post_idx').on(t.postId, t.createdAt)],
)
