/** Inbox rules of the domain: what state an entry is in, from the moments recorded on it. */
import type { InboxState } from './vocabulary'

export interface InboxMoments {
  readAt: Date | null
  repliedAt: Date | null
  hiddenAt: Date | null
}

/** The entry's state, by precedence: hidden > replied > read > unread. */
export function inboxStateOf(moments: InboxMoments): InboxState {
  if (moments.hiddenAt) return 'hidden'
  if (moments.repliedAt) return 'replied'
  if (moments.readAt) return 'read'
  return 'unread'
}
