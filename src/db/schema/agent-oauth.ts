import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import { ts, workspaces } from './workspaces'

/**
 * An MCP client registered through dynamic client registration (RFC 7591): public clients only
 * (no secret; PKCE proves the holder of the code), with the redirect URIs it may use.
 */
export const agentClients = pgTable('agent_clients', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
})

/**
 * One authorization request of an agent: created when the consent page is shown (its request
 * token, stored hashed, is the page's form key), decided by the signed-in user (the workspace),
 * then exchanged once for tokens through its code (stored hashed). Short-lived and single use.
 */
export const agentAuthorizations = pgTable(
  'agent_authorizations',
  {
    id: text('id').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => agentClients.id, { onDelete: 'cascade' }),
    requestHash: text('request_hash').notNull().unique(),
    /** The user the consent page was shown to; only they may decide it. */
    userId: text('user_id').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    /** The client's `state`, handed back unchanged. */
    state: text('state'),
    /** RFC 8707 resource indicator: the MCP endpoint the token is for. */
    resource: text('resource').notNull(),
    scope: text('scope').notNull(),
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').unique(),
    /** The token issued for the code (`api_tokens.id`): revoked if the code is ever presented again. */
    tokenId: text('token_id'),
    expiresAt: ts('expires_at').notNull(),
    decidedAt: ts('decided_at'),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('agent_authorizations_expires_idx').on(t.expiresAt)],
)
