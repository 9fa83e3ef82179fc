/** What a workspace member can be told about, in the app and by email, and who chooses which. */
export const NOTIFICATION_KINDS = [
  'review_requested',
  'post_approved',
  'changes_requested',
  'target_failed',
  'account_needs_reconnect',
  'token_expires_before_post',
  'mentioned',
] as const

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]

export const isNotificationKind = (value: string): value is NotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(value)

/** A user's choice for one kind: shown in the app, sent by email. Both on until the user says otherwise. */
export interface NotificationChannels {
  inApp: boolean
  email: boolean
}

export const DEFAULT_CHANNELS: NotificationChannels = { inApp: true, email: true }

/** What each kind is about, in words (the preferences page and the API's descriptions). */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  review_requested: 'A post is submitted for review',
  post_approved: 'A post you submitted is approved',
  changes_requested: 'Changes are requested on a post you submitted',
  target_failed: 'A post fails to publish on an account',
  account_needs_reconnect: 'An account needs reconnecting',
  token_expires_before_post: "An account's access ends before a scheduled post",
  mentioned: 'Someone mentions you in a note',
}

/** Email retry policy of the outbox: the delay before attempt `attempts + 1`, and when to give up. */
export const EMAIL_MAX_ATTEMPTS = 5

export function emailRetryDelayMs(attempts: number): number {
  // 1 min, 5 min, 25 min, 2 h: a short outage of the mail server costs little, a long one gives up.
  return 60_000 * 5 ** Math.max(0, attempts - 1)
}
