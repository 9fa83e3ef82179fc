import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import type { MemberRole } from '../../domain/people'
import { users } from './people'
import { ts, workspaces } from './workspaces'

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
    /** The role a personal token acts with ('owner' for tokens made before roles); an agent's comes from its user. */
    role: text('role').$type<MemberRole>().notNull().default('owner'),
    /** The account groups a personal token is limited to; null: the whole workspace. */
    groupIds: jsonb('group_ids').$type<string[]>(),
    /** Who made a personal token (null for tokens made before, or by the CLI). */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_uq').on(t.tokenHash),
    index('api_tokens_workspace_idx').on(t.workspaceId),
    uniqueIndex('api_tokens_refresh_hash_uq').on(t.refreshTokenHash),
  ],
)
