/**
 * Small pieces of a comment shown by the inbox and the post page: the author with initials (a
 * stranger's picture would be an outside image, which the page's policy does not load), the state,
 * the time. Every text here is a stranger's: written as text nodes, so hono/jsx escapes it.
 */
import type { PlatformId } from '../../../domain/vocabulary'
import { NetworkMark, networkName } from '../../ui'
import type { InboxComment } from './data'

export const STATE_LABELS: Record<string, string> = {
  unread: 'Unread',
  read: 'Read',
  replied: 'Replied',
  hidden: 'Hidden',
}

/** Up to two letters of the author's name for the avatar. */
export function initials(name: string): string {
  const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean)
  const letters = words.slice(0, 2).map((w) => Array.from(w)[0] ?? '')
  return (letters.join('') || '?').toUpperCase()
}

/** The author's round avatar with initials, decorative (the name is written beside it). */
export const Avatar = ({ name, size }: { name: string; size?: 'small' }) => (
  <span class={size === 'small' ? 'inbox-avatar is-small' : 'inbox-avatar'} aria-hidden="true">
    {initials(name)}
  </span>
)

/** The comment's state (or "Gone" once the network no longer has it) as a small badge. */
export function StateBadge({ comment }: { comment: InboxComment }) {
  if (comment.gone) return <span class="inbox-state inbox-state-gone">Gone</span>
  return <span class={`inbox-state inbox-state-${comment.state}`}>{STATE_LABELS[comment.state] ?? comment.state}</span>
}

/** The author's name and handle. */
export const Author = ({ comment }: { comment: InboxComment }) => (
  <span class="inbox-author">
    <span class="inbox-author-name">{comment.author.name}</span>
    {comment.author.handle ? (
      <span class="inbox-author-handle">@{comment.author.handle.replace(/^@/u, '')}</span>
    ) : null}
    {comment.fromAccount ? <span class="inbox-you">You</span> : null}
  </span>
)

/** Where it came from: the network's mark and name, and the account. */
export const Source = ({ platform, account }: { platform: PlatformId; account: string }) => (
  <span class="inbox-source">
    <NetworkMark platform={platform} size="small" />
    <span>
      {networkName(platform)} · {account}
    </span>
  </span>
)

/** The time the network gives, short ("6 Dec, 13:50"), in the workspace zone. */
export const When = ({ at, timeZone }: { at: string; timeZone: string }) => (
  <time class="inbox-time" datetime={at}>
    {new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone,
    }).format(new Date(at))}
  </time>
)
