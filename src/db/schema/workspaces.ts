import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

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
  /** How many days the activity log keeps (free 30, pro 90, agency 365). */
  activityRetentionDays: integer('activity_retention_days').notNull().default(90),
})

export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  planId: text('plan_id')
    .notNull()
    .references(() => plans.id),
  /** IANA zone of queue slots and best-time reports. */
  timezone: text('timezone').notNull().default('UTC'),
  /** Every post must be approved before it is scheduled, queued or published. */
  approvalRequired: boolean('approval_required').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
})

export { ts }
