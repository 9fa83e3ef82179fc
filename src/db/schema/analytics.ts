import { date, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { accounts } from './accounts'
import { targets } from './posts'
import { ts } from './workspaces'

/** One follower count per account per day; `followers` null means the network reported none. */
export const followerSnapshots = pgTable(
  'follower_snapshots',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    followers: integer('followers'),
    collectedAt: ts('collected_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
)

/** Engagement of one published target at one moment; null = not reported, never 0. */
export const targetMetricSnapshots = pgTable(
  'target_metric_snapshots',
  {
    id: text('id').primaryKey(),
    targetId: text('target_id')
      .notNull()
      .references(() => targets.id, { onDelete: 'cascade' }),
    collectedAt: ts('collected_at').notNull(),
    likes: integer('likes'),
    comments: integer('comments'),
    shares: integer('shares'),
    views: integer('views'),
    saves: integer('saves'),
    clicks: integer('clicks'),
    impressions: integer('impressions'),
    reach: integer('reach'),
  },
  (t) => [index('target_metric_snapshots_target_idx').on(t.targetId, t.collectedAt.desc())],
)
