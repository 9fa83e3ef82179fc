import type { ActorRef } from '../../domain/access'
import type { StoredApproval } from '../../domain/approval'
import type { ContentFieldName, ContentFields, StoredRecurrence } from '../../domain/post-content'
import type { PlatformId, PostSource, PostStatus, PostType, TargetError, TargetStatus } from '../../domain/vocabulary'
import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { accounts } from './accounts'
import { ts, workspaces } from './workspaces'

/** A content field's stored value (the column is null where the field is unset). */
type Stored<K extends ContentFieldName> = NonNullable<ContentFields[K]>

export const posts = pgTable(
  'posts',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    status: text('status').$type<PostStatus>().notNull(),
    /** 'external': read from the network (an imported post), read-only through the service. */
    source: text('source').$type<PostSource>().notNull().default('service'),
    type: text('type').$type<PostType>().notNull(),
    caption: text('caption'),
    captionOverrides: jsonb('caption_overrides').$type<Stored<'captionOverrides'>>(),
    mediaIds: jsonb('media_ids').$type<string[]>().notNull().default([]),
    scheduledAt: ts('scheduled_at'),
    publishedAt: ts('published_at'),
    threadParts: jsonb('thread_parts').$type<Stored<'threadParts'>>(),
    firstComment: text('first_comment'),
    replyToMicropostId: text('reply_to_micropost_id'),
    quoteMicropostId: text('quote_micropost_id'),
    videoNetOptions: jsonb('video_net_options').$type<Stored<'videoNetOptions'>>(),
    audio: jsonb('audio').$type<Stored<'audio'>>(),
    pinboardNetBoards: jsonb('pinboard_net_boards').$type<Stored<'pinboardNetBoards'>>(),
    pinboardNetOptions: jsonb('pinboard_net_options').$type<Stored<'pinboardNetOptions'>>(),
    linkUrl: text('link_url'),
    title: text('title'),
    destinations: jsonb('destinations').$type<Stored<'destinations'>>(),
    targetOptions: jsonb('target_options').$type<Stored<'targetOptions'>>(),
    recurrence: jsonb('recurrence').$type<StoredRecurrence>(),
    /** The post whose publication created this occurrence of a recurring post. */
    recurrenceParentId: text('recurrence_parent_id'),
    queued: boolean('queued').notNull().default(false),
    /** The queue slot occurrence this post holds; unique per workspace so no two posts share one. */
    queueSlotAt: ts('queue_slot_at'),
    /** Bumped by every edit, reschedule and publish: deliveries made for an older version do nothing. */
    version: integer('version').notNull().default(1),
    /** The post's review: submitted, approved or changes requested; null when never submitted. */
    approval: jsonb('approval').$type<StoredApproval>(),
    /** Who created the post (null for posts made before this was kept). */
    createdBy: jsonb('created_by').$type<ActorRef>(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('posts_workspace_created_idx').on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
    index('posts_workspace_status_created_idx').on(t.workspaceId, t.status, t.createdAt.desc()),
    index('posts_workspace_scheduled_idx').on(t.workspaceId, t.scheduledAt),
    index('posts_workspace_published_idx').on(t.workspaceId, t.publishedAt),
    index('posts_workspace_type_idx').on(t.workspaceId, t.type),
    /** A post's calendar time (published, else scheduled): the calendar's and `GET /v1/posts?from&to`'s range. */
    index('posts_workspace_calendar_idx').on(t.workspaceId, sql`coalesce(${t.publishedAt}, ${t.scheduledAt})`),
    index('posts_caption_trgm_idx').using('gin', sql`${t.caption} gin_trgm_ops`),
    uniqueIndex('posts_queue_slot_uq').on(t.workspaceId, t.queueSlotAt).where(sql`${t.queueSlotAt} is not null`),
  ],
)

/** One destination of a post: one per distinct account. */
export const targets = pgTable(
  'targets',
  {
    id: text('id').primaryKey(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    platform: text('platform').$type<PlatformId>().notNull(),
    /** Index of the account in the post's `accountIds`, so the record keeps the caller's order. */
    position: integer('position').notNull().default(0),
    status: text('status').$type<TargetStatus>().notNull().default('PENDING'),
    permalink: text('permalink'),
    platformPostId: text('platform_post_id'),
    error: jsonb('error').$type<TargetError>(),
    warnings: jsonb('warnings').$type<string[]>(),
    publishedAt: ts('published_at'),
    attempts: integer('attempts').notNull().default(0),
    /** When this target is due (the post's time, or the next retry). */
    dueAt: ts('due_at'),
    /** When a delivery was last handed to the queue for the current due time. */
    dispatchedAt: ts('dispatched_at'),
    /**
     * Whose queue the delivery went to: the Node boot (`<instance>/<boot>`) whose in-process queue
     * holds it, null on Workers (QStash keeps it). A live server takes over a dead boot's deliveries.
     */
    dispatchedBy: text('dispatched_by'),
    /** A claim in PUBLISHING holds until this time; past it, the sweep looks at the target. */
    leaseUntil: ts('lease_until'),
    /**
     * Who made the claim: `<instance>/<boot>` of a Node process (its instance id lives under DATA_DIR),
     * null on Workers. A restarted instance knows the claims of its earlier boots are orphaned.
     */
    leaseHolder: text('lease_holder'),
    /** The post version the current claim was made for. */
    claimedVersion: integer('claimed_version'),
    /**
     * Set before the current claim's network call may start (null: it cannot have started). After a
     * crash, recovery sends a claim without it back to PENDING; only one with it is asked about.
     */
    callStartedAt: ts('call_started_at'),
    /** Progress of a multi-step publish (thread part ids, first comment, pending network state). */
    progress: jsonb('progress').$type<Record<string, unknown>>(),
    /**
     * The figures of the latest metric snapshot taken at least 48 hours after publication (what best
     * times scores a post by), kept current by a trigger on `target_metric_snapshots` (migration 0005),
     * so a report reads one row per post instead of its snapshot history. Null until such a snapshot.
     */
    matureMetricsAt: ts('mature_metrics_at'),
    matureLikes: integer('mature_likes'),
    matureComments: integer('mature_comments'),
    matureShares: integer('mature_shares'),
    matureSaves: integer('mature_saves'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('targets_post_account_uq').on(t.postId, t.accountId),
    index('targets_account_idx').on(t.accountId),
    index('targets_account_platform_post_idx').on(t.accountId, t.platformPostId),
    index('targets_workspace_platform_idx').on(t.workspaceId, t.platform, t.postId),
    index('targets_due_idx').on(t.status, t.dueAt),
    // A dead server's queued deliveries, found by its holder (docs/architecture.md, "Several servers").
    index('targets_dispatched_by_idx').on(t.dispatchedBy).where(sql`${t.status} = 'PENDING'`),
    index('targets_workspace_published_idx').on(t.workspaceId, t.publishedAt).where(sql`${t.status} = 'PUBLISHED'`),
  ],
)
