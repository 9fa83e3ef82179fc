import { sql } from 'drizzle-orm'
import { boolean, foreignKey, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { accounts } from './accounts'
import { memberships } from './people'
import { ts, workspaces } from './workspaces'

/** An account group (a client, a brand): its accounts, and whether its posts need approval. */
export const accountGroups = pgTable(
  'account_groups',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color'),
    /** A post to any account of the group must be approved before it goes out. */
    approvalRequired: boolean('approval_required').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('account_groups_workspace_name_uq').on(t.workspaceId, sql`lower(${t.name})`)],
)

/** Which accounts a group holds; an account may be in several groups. */
export const accountGroupMembers = pgTable(
  'account_group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => accountGroups.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.accountId] }),
    index('account_group_members_account_idx').on(t.workspaceId, t.accountId),
  ],
)

/** The groups a member or reviewer is limited to; none: the whole workspace. */
export const membershipGroups = pgTable(
  'membership_groups',
  {
    workspaceId: text('workspace_id').notNull(),
    userId: text('user_id').notNull(),
    groupId: text('group_id')
      .notNull()
      .references(() => accountGroups.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId, t.groupId] }),
    foreignKey({
      name: 'membership_groups_membership_fk',
      columns: [t.workspaceId, t.userId],
      foreignColumns: [memberships.workspaceId, memberships.userId],
    }).onDelete('cascade'),
  ],
)
