import { integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { ts, workspaces } from './workspaces'

/**
 * `Idempotency-Key` records: the first answer to a key is replayed for 24 h. A row is `pending`
 * while its request runs; the fingerprint (method, path, body hash) tells a reuse with another body.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    state: text('state').notNull().default('pending'),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] })],
)
