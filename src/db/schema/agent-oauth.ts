import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { users } from './people'
import { apiTokens } from './tokens'
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

/**
 * The workspaces a user chose on the consent page, in the order chosen (`position` 0 is the
 * default), while the request waits for its code's exchange.
 */
export const agentAuthorizationWorkspaces = pgTable(
  'agent_authorization_workspaces',
  {
    authorizationId: text('authorization_id')
      .notNull()
      .references(() => agentAuthorizations.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.authorizationId, t.workspaceId] })],
)

/**
 * An agent's grant: the OAuth-issued token (`api_tokens` row, in its default workspace) and the user
 * who allowed it. The token reaches a workspace of the grant only while that user is a member there.
 */
export const agentGrants = pgTable(
  'agent_grants',
  {
    tokenId: text('token_id')
      .primaryKey()
      .references(() => apiTokens.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('agent_grants_user_idx').on(t.userId)],
)

/** The workspaces a grant covers, in the order chosen at consent (`position` 0 is the default). */
export const agentGrantWorkspaces = pgTable(
  'agent_grant_workspaces',
  {
    tokenId: text('token_id')
      .notNull()
      .references(() => agentGrants.tokenId, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** The grant's last call that worked in this workspace, noted at most once a minute. */
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    primaryKey({ columns: [t.tokenId, t.workspaceId] }),
    index('agent_grant_workspaces_ws_idx').on(t.workspaceId),
  ],
)
