import type { AccountStatus, Connection, PlatformId } from '../../domain/vocabulary'
import { index, pgTable, text } from 'drizzle-orm/pg-core'
import { ts, workspaces } from './workspaces'

/** A connected social account. `credentials` is AES-GCM ciphertext (see infra/credential-cipher.ts); never returned. */
export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    platform: text('platform').$type<PlatformId>().notNull(),
    connection: text('connection').$type<Connection>().notNull(),
    username: text('username').notNull(),
    /** The network's own id for this identity (user id, page id, DID...), when known. */
    externalId: text('external_id'),
    status: text('status').$type<AccountStatus>().notNull().default('ACTIVE'),
    /** Why the account is not ACTIVE, in words a person can act on ("token expired: reconnect the account"). */
    statusMessage: text('status_message'),
    credentials: text('credentials').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('accounts_workspace_idx').on(t.workspaceId, t.platform)],
)
