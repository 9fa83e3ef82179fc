import type { PlatformId } from '../../domain/vocabulary'
import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { ts } from './workspaces'

/**
 * The built-in simulated network of SANDBOX accounts: what it "published", so its permalinks
 * open a page showing the post, and so a retried call with the same idempotency key finds the
 * post it already made instead of making another (the way a real network's idempotency works).
 */
export const sandboxPosts = pgTable(
  'sandbox_posts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    platform: text('platform').$type<PlatformId>().notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** The post this one replies to (thread parts), or null for a head post. */
    replyToId: text('reply_to_id'),
    kind: text('kind').notNull(),
    text: text('text').notNull(),
    media: jsonb('media').$type<Array<{ url: string; type: string }>>().notNull(),
    options: jsonb('options').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sandbox_posts_key_uq').on(t.accountId, t.idempotencyKey),
    index('sandbox_posts_reply_idx').on(t.replyToId),
  ],
)
