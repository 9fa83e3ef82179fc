/**
 * The inbox (docs/inbox.md): comments and mentions read from the networks, replies sent from the
 * service, and the sync's per-account and per-post cursors. `sandbox_comments` is the simulated
 * network's own store of comments on sandbox posts.
 */
import type { InboxKind, InboxReplyStatus, InboxState, PlatformId, SyncStream } from '../../domain/vocabulary'
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { accounts } from './accounts'
import { targets } from './posts'
import { ts } from './workspaces'

/** A failure kept on a sync stream or a reply, in words (never comment text). */
export interface StoredFailure {
  code: string
  message: string
}

export const inboxComments = pgTable(
  'inbox_comments',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    platform: text('platform').$type<PlatformId>().notNull(),
    kind: text('kind').$type<InboxKind>().notNull(),
    targetId: text('target_id').references(() => targets.id, { onDelete: 'set null' }),
    postId: text('post_id'),
    externalId: text('external_id').notNull(),
    /** Our id of the comment this one answers, once known. */
    parentId: text('parent_id'),
    parentExternalId: text('parent_external_id'),
    postExternalId: text('post_external_id'),
    authorExternalId: text('author_external_id'),
    authorName: text('author_name').notNull(),
    authorHandle: text('author_handle'),
    authorAvatarUrl: text('author_avatar_url'),
    text: text('text').notNull(),
    permalink: text('permalink'),
    fromAccount: boolean('from_account').notNull().default(false),
    state: text('state').$type<InboxState>().notNull().default('unread'),
    readAt: ts('read_at'),
    repliedAt: ts('replied_at'),
    hiddenAt: ts('hidden_at'),
    likedAt: ts('liked_at'),
    /** The network no longer has the comment (or its post). */
    goneAt: ts('gone_at'),
    /** The network's time of the comment. */
    createdAt: ts('created_at').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('inbox_comments_account_kind_external_uq').on(t.accountId, t.kind, t.externalId),
    index('inbox_comments_workspace_created_idx').on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
    index('inbox_comments_workspace_state_idx').on(t.workspaceId, t.state, t.createdAt.desc(), t.id.desc()),
    index('inbox_comments_target_idx').on(t.targetId, t.createdAt),
  ],
)

export const inboxReplies = pgTable(
  'inbox_replies',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    commentId: text('comment_id')
      .notNull()
      .references(() => inboxComments.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    text: text('text').notNull(),
    status: text('status').$type<InboxReplyStatus>().notNull().default('PENDING'),
    /** Set before the network call may start (null: it cannot have started), as on targets. */
    callStartedAt: ts('call_started_at'),
    externalId: text('external_id'),
    permalink: text('permalink'),
    error: jsonb('error').$type<StoredFailure>(),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
  },
  (t) => [index('inbox_replies_comment_idx').on(t.commentId, t.createdAt)],
)

/** One row per account and stream: its cursor, when it runs next, who holds it, its backoff. */
export const accountSync = pgTable(
  'account_sync',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    stream: text('stream').$type<SyncStream>().notNull(),
    cursor: text('cursor'),
    nextRunAt: ts('next_run_at'),
    leaseUntil: ts('lease_until'),
    leaseHolder: text('lease_holder'),
    failures: integer('failures').notNull().default(0),
    backoffUntil: ts('backoff_until'),
    lastError: jsonb('last_error').$type<StoredFailure>(),
    lastSuccessAt: ts('last_success_at'),
    /** A refresh someone asked for (POST /v1/analytics/refresh); null when none is waiting. */
    requestedAt: ts('requested_at'),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.stream] }), index('account_sync_next_run_idx').on(t.nextRunAt)],
)

/** The comment cursor of one published target. */
export const targetCommentSync = pgTable(
  'target_comment_sync',
  {
    targetId: text('target_id')
      .primaryKey()
      .references(() => targets.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    cursor: text('cursor'),
    lastCommentAt: ts('last_comment_at'),
    syncedAt: ts('synced_at'),
    nextRunAt: ts('next_run_at'),
  },
  (t) => [index('target_comment_sync_account_idx').on(t.accountId, t.nextRunAt)],
)

/** The simulated network's comments on sandbox posts (its public page adds them). */
export const sandboxComments = pgTable(
  'sandbox_comments',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    sandboxPostId: text('sandbox_post_id').notNull(),
    replyToId: text('reply_to_id'),
    authorName: text('author_name').notNull(),
    text: text('text').notNull(),
    fromAccount: boolean('from_account').notNull().default(false),
    hidden: boolean('hidden').notNull().default(false),
    liked: boolean('liked').notNull().default(false),
    deletedAt: ts('deleted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('sandbox_comments_post_idx').on(t.sandboxPostId, t.createdAt),
    index('sandbox_comments_account_idx').on(t.accountId, t.createdAt),
  ],
)
