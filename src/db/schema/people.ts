import { sql } from 'drizzle-orm'
import { index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import type { MemberRole } from '../../domain/people'
import { ts, workspaces } from './workspaces'

/** People who sign in to the dashboard. The email is unique whatever its case; only a password hash is kept. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** `pbkdf2-sha256$<iterations>$<chunk>$<salt>$<hash>` (lib/password.ts): the scheme travels with the hash. */
    passwordHash: text('password_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`)],
)

/** A user's place in a workspace and what they may do there. */
export const memberships = pgTable(
  'memberships',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<MemberRole>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('memberships_user_idx').on(t.userId)],
)

/** A signed-in browser: only the SHA-256 of the cookie's token is stored; revoked or expired ends it. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** The CSRF token of the session's forms (random, compared in constant time). */
    csrfToken: text('csrf_token').notNull(),
    /** The workspace the user last opened, where `/app` takes them. */
    lastWorkspaceId: text('last_workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
    expiresAt: ts('expires_at').notNull(),
    /** When the session was last used (kept to within a few minutes): it ends after a long idle spell. */
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

/** An invitation by link: single use, expiring, for one role; only the SHA-256 of its token is stored. */
export const invitations = pgTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    role: text('role').$type<MemberRole>().notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('invitations_workspace_idx').on(t.workspaceId)],
)
