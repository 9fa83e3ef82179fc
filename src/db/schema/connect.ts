import type { Connection, PlatformId } from '../../domain/vocabulary'
import { index, pgTable, text } from 'drizzle-orm/pg-core'
import { accounts } from './accounts'
import { accountGroups } from './groups'
import { ts, workspaces } from './workspaces'

/**
 * A hosted connect link (`POST /v1/accounts/connect`, `/reconnect`): single use, short-lived. Only
 * the SHA-256 of its token is stored; the token itself lives in the link handed to the caller.
 */
export const connectLinks = pgTable(
  'connect_links',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    platform: text('platform').$type<PlatformId>().notNull(),
    connection: text('connection').$type<Connection>().notNull(),
    /** Where the owner's browser goes back to when done (an allowed origin); null: our own result page. */
    redirectUrl: text('redirect_url'),
    /** Set for a reconnect: the account whose credentials the link renews. */
    accountId: text('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    /** The account group a new account joins when the link connects it; null: none (a group deleted meanwhile too). */
    groupId: text('group_id').references(() => accountGroups.id, { onDelete: 'set null' }),
    expiresAt: ts('expires_at').notNull(),
    /** When an account was connected through it; a used link connects nothing more. */
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('connect_links_workspace_idx').on(t.workspaceId)],
)

/**
 * One authorization started from a link: the OAuth `state` (stored hashed), single use and
 * expiring, bound to its link; the PKCE verifier sealed by the credential cipher.
 */
export const oauthStates = pgTable('oauth_states', {
  id: text('id').primaryKey(),
  linkId: text('link_id')
    .notNull()
    .references(() => connectLinks.id, { onDelete: 'cascade' }),
  stateHash: text('state_hash').notNull().unique(),
  platform: text('platform').$type<PlatformId>().notNull(),
  /** Sealed `{ codeVerifier }` (bound to this row's id); null where the network takes no PKCE. */
  verifier: text('verifier'),
  /** The federated network: the origin of the owner's server this authorization goes to. */
  instanceUrl: text('instance_url'),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
})

/**
 * Our OAuth app on each server of the federated network, registered there on first use
 * (`POST /api/v1/apps`) and remembered; the secret sealed by the credential cipher (bound to the origin).
 */
export const federatedApps = pgTable('federated_apps', {
  instanceOrigin: text('instance_origin').primaryKey(),
  clientId: text('client_id').notNull(),
  clientSecret: text('client_secret').notNull(),
  /** The redirect URI it was registered with; another one (PUBLIC_URL changed) registers again. */
  redirectUri: text('redirect_uri').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
})

/**
 * A sign-in that granted several identities (pages, channels, organisations), waiting for the
 * owner to choose which to connect: each identity with its credentials, sealed by the credential
 * cipher (bound to this row's id), short-lived, bound to the link and the sign-in it came from.
 * The choice is taken once (the row is deleted with it); expired ones are deleted by the cleanup job.
 */
export const connectChoices = pgTable(
  'connect_choices',
  {
    id: text('id').primaryKey(),
    linkId: text('link_id')
      .notNull()
      .references(() => connectLinks.id, { onDelete: 'cascade' }),
    oauthStateId: text('oauth_state_id')
      .notNull()
      .references(() => oauthStates.id, { onDelete: 'cascade' }),
    /** SHA-256 of the single-use token the chooser form posts back. */
    tokenHash: text('token_hash').notNull().unique(),
    platform: text('platform').$type<PlatformId>().notNull(),
    /** Sealed `{ identities: VerifiedAccount[] }`. */
    identities: text('identities').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('connect_choices_expires_idx').on(t.expiresAt)],
)
