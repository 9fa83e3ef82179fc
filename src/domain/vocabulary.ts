/**
 * The twenty platform ids: values of `platform`, keys of `captionOverrides` (docs/decisions.md,
 * "Platforms and connections").
 */
export const PLATFORM_IDS = [
  'PHOTO_NET',
  'SHORTVIDEO_NET',
  'MICROBLOG_NET',
  'MESSAGING_NET',
  'SOCIALGRAPH_NET',
  'PROFESSIONAL_NET',
  'TEXTTHREAD_NET',
  'OPENPROTOCOL_NET',
  'VIDEOSHARE_NET',
  'PINBOARD_NET',
  'FEDERATED_NET',
  'CHAT_NET',
  'FORUM_NET',
  'LOCAL_NET',
  'BLOG_NET',
  'WORKCHAT_NET',
  'SITE_NET',
  'COMMUNITY_NET',
  'RELAY_NET',
  'DEVBLOG_NET',
] as const
export type PlatformId = (typeof PLATFORM_IDS)[number]

export const CONNECTIONS = [
  'SOCIALGRAPH_LOGIN',
  'DIRECT_LOGIN',
  'APP_PASSWORD',
  'BOT_TOKEN',
  'WEBHOOK',
  'API_KEY',
  'REMOTE_SIGNER',
  'PRIVATE_KEY',
  'SANDBOX',
] as const
export type Connection = (typeof CONNECTIONS)[number]

export const ACCOUNT_STATUSES = ['ACTIVE', 'EXPIRED', 'DISCONNECTED'] as const
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number]

export const POST_TYPES = ['IMAGE', 'CAROUSEL', 'REEL', 'STORY'] as const
export type PostType = (typeof POST_TYPES)[number]

export const POST_STATUSES = [
  'DRAFT',
  'IN_REVIEW',
  'APPROVED',
  'CHANGES_REQUESTED',
  'SCHEDULED',
  'PUBLISHING',
  'PUBLISHED',
  'FAILED',
] as const
export type PostStatus = (typeof POST_STATUSES)[number]

export const TARGET_STATUSES = ['PENDING', 'PUBLISHING', 'PUBLISHED', 'FAILED'] as const
export type TargetStatus = (typeof TARGET_STATUSES)[number]

export const SANDBOX_FAIL_MODES = ['never', 'once', 'transient', 'always'] as const
export type SandboxFailMode = (typeof SANDBOX_FAIL_MODES)[number]

export const MEDIA_TYPES = ['IMAGE', 'VIDEO'] as const
export type MediaType = (typeof MEDIA_TYPES)[number]

/**
 * The codes of a target's `error` (docs/decisions.md, "Target errors"): the failure classes the
 * adapters return, which are also the engine's (`FailureKind`), `unconfirmed` included, and
 * `account_disconnected`: the account was disconnected before the target went out.
 */
export const TARGET_ERROR_CODES = [
  'transient',
  'rate_limited',
  'rejected',
  'auth_expired',
  'unconfirmed',
  'account_disconnected',
] as const
export type TargetErrorCode = (typeof TARGET_ERROR_CODES)[number]

/** Why a target did not (yet) publish: a failure class of the engine, or `unconfirmed`. */
export interface TargetError {
  code: TargetErrorCode
  message: string
  retryable: boolean
}

/** Where a post comes from: made through the service, or read from the network (imported, read-only). */
export const POST_SOURCES = ['service', 'external'] as const
export type PostSource = (typeof POST_SOURCES)[number]

/** An inbox entry: a comment on one of the account's posts, or a mention of the account. */
export const INBOX_KINDS = ['comment', 'mention'] as const
export type InboxKind = (typeof INBOX_KINDS)[number]

/** An inbox entry's state; precedence hidden > replied > read > unread (`inboxStateOf`). */
export const INBOX_STATES = ['unread', 'read', 'replied', 'hidden'] as const
export type InboxState = (typeof INBOX_STATES)[number]

/** A reply sent from the inbox; sending follows publishing's call-started marker (at most once). */
export const INBOX_REPLY_STATUSES = ['PENDING', 'SENDING', 'SENT', 'FAILED', 'UNCONFIRMED'] as const
export type InboxReplyStatus = (typeof INBOX_REPLY_STATUSES)[number]

/** What the sync reads per account, each with its own cursor, schedule and backoff. */
export const SYNC_STREAMS = ['posts', 'comments', 'mentions', 'metrics'] as const
export type SyncStream = (typeof SYNC_STREAMS)[number]
