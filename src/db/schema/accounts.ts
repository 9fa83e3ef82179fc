import type { AccountStatus, Connection, PlatformId } from '../../domain/vocabulary'
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core'
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
    /** Sealed credentials; '' once the account is disconnected (wiped, nothing left to decrypt). */
    credentials: text('credentials').notNull(),
    /** When the stored access token stops working, when the network said so; null when unknown or never. */
    tokenExpiresAt: ts('token_expires_at'),
    /**
     * The caption budget the network reported for this account (a paid tier's long posts), read at
     * connect and at each token renewal; null: the platform's `caption.maxLength`.
     */
    captionMaxLength: integer('caption_max_length'),
    /** When the account was last connected or reconnected. */
    connectedAt: ts('connected_at').notNull().defaultNow(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('accounts_workspace_idx').on(t.workspaceId, t.platform)],
)
