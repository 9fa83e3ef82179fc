import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** Plans are data (docs/decisions.md, "Plans and limits"); -1 means unlimited. Rows are seeded by migration. */
export const plans = pgTable('plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  socialAccounts: integer('social_accounts').notNull(),
  seats: integer('seats').notNull(),
  monthlyPosts: integer('monthly_posts').notNull(),
  /** Webhook endpoints a workspace may have. */
  webhookEndpoints: integer('webhook_endpoints').notNull().default(10),
})

export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  planId: text('plan_id')
    .notNull()
    .references(() => plans.id),
  /** IANA zone of queue slots and best-time reports. */
  timezone: text('timezone').notNull().default('UTC'),
  createdAt: ts('created_at').notNull().defaultNow(),
})

/** Personal access tokens: only the SHA-256 of the whole token is kept. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The first characters of the token, to recognise it in a list; not enough to use it. */
    hint: text('hint').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
    /** Set on tokens issued to an agent through OAuth: they expire and are renewed with the refresh token. */
    expiresAt: ts('expires_at'),
    /** The MCP client an OAuth token was issued to (`agent_clients.id`); null for a personal access token. */
    agentClientId: text('agent_client_id'),
    /** SHA-256 of the refresh token of an OAuth grant; rotated at every use. */
    refreshTokenHash: text('refresh_token_hash'),
    refreshExpiresAt: ts('refresh_expires_at'),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_uq').on(t.tokenHash),
    index('api_tokens_workspace_idx').on(t.workspaceId),
    uniqueIndex('api_tokens_refresh_hash_uq').on(t.refreshTokenHash),
  ],
)

export { ts }
