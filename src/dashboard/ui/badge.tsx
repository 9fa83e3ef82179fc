/** Chips (small labels or filters) and status badges coloured from `--status-*`. */
import type { Child } from 'hono/jsx'

/** The statuses a badge knows: a post's or target's, and an account's or invitation's. */
export type BadgeStatus =
  | 'draft'
  | 'in_review'
  | 'approved'
  | 'changes_requested'
  | 'scheduled'
  | 'publishing'
  | 'published'
  | 'failed'
  | 'active'
  | 'expired'
  | 'disconnected'
  | 'pending'

const LABELS: Record<BadgeStatus, string> = {
  draft: 'Draft',
  in_review: 'In review',
  approved: 'Approved',
  changes_requested: 'Changes requested',
  scheduled: 'Scheduled',
  publishing: 'Publishing',
  published: 'Published',
  failed: 'Failed',
  active: 'Active',
  expired: 'Expired',
  disconnected: 'Disconnected',
  pending: 'Pending',
}

const isBadgeStatus = (s: string): s is BadgeStatus => Object.hasOwn(LABELS, s)

/** A status badge: `.badge.badge-{status}` with a dot in the status colour. Takes `PUBLISHED` or `published`. */
export function StatusBadge(props: { status: string; children?: Child }) {
  const status = props.status.toLowerCase()
  const known = isBadgeStatus(status)
  return (
    <span class={known ? `badge badge-${status}` : 'badge'}>{props.children ?? (known ? LABELS[status] : status)}</span>
  )
}

/** A chip: a compact label; a link when `href` is given. */
export function Chip(props: { href?: string; selected?: boolean; class?: string; children?: Child }) {
  const cls = ['chip', props.selected ? 'is-selected' : '', props.class ?? ''].filter(Boolean).join(' ')
  if (props.href)
    return (
      <a class={cls} href={props.href} aria-current={props.selected ? 'true' : undefined}>
        {props.children}
      </a>
    )
  return <span class={cls}>{props.children}</span>
}
