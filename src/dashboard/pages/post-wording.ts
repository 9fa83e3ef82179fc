/**
 * What the post page says about a post and each of its targets, for every state: a draft is not
 * "published there", a scheduled post says when (in the workspace zone), a publishing one says it
 * is going out, a partly failed one says where. Pure functions, so each state's wording is tested.
 */
import { RULES } from '../../domain/rules/index'
import type { TargetErrorCode } from '../../domain/vocabulary'
import type { PostRecord, TargetRecord } from '../../services/posts/record'
import { networkName } from '../ui/network'

/** A status as a person reads it. */
export const STATUS_LABELS: Record<string, string> = {
  DRAFT: 'Draft',
  IN_REVIEW: 'In review',
  APPROVED: 'Approved',
  CHANGES_REQUESTED: 'Changes requested',
  SCHEDULED: 'Scheduled',
  PUBLISHING: 'Publishing',
  PUBLISHED: 'Published',
  FAILED: 'Failed',
  PENDING: 'Waiting',
}

/** A time in the zone, e.g. "Tue 1 Dec 2026, 09:30 (Europe/Paris)". */
export function zonedText(at: string, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
  }).format(new Date(at))
  return `${text} (${timeZone})`
}

export interface Wording {
  /** Who the targets are, by account name ("@alice on Microblog network"). */
  label(t: TargetRecord): string
  timeZone: string
}

const list = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`

const accountsWord = (n: number) => (n === 1 ? '1 account' : `${n} accounts`)

/** The one sentence at the top of the page: what state the post is in, in plain words. */
export function postSummary(post: PostRecord, w: Wording): string {
  const n = post.targets.length
  const by = (status: string) => post.targets.filter((t) => t.status === status)
  switch (post.status) {
    case 'DRAFT':
      return `Draft: not scheduled and not published on any network yet (${accountsWord(n)} chosen).`
    case 'SCHEDULED':
      return post.scheduledAt
        ? `Scheduled for ${zonedText(post.scheduledAt, w.timeZone)} on ${accountsWord(n)}; nothing is published yet.`
        : `Scheduled on ${accountsWord(n)}; nothing is published yet.`
    case 'IN_REVIEW':
      return `Waiting for review: nothing goes out until a reviewer approves it (${accountsWord(n)} chosen).`
    case 'APPROVED':
      return post.scheduledAt
        ? `Approved; goes out ${zonedText(post.scheduledAt, w.timeZone)} on ${accountsWord(n)}.`
        : `Approved: ready to schedule, queue or publish on ${accountsWord(n)}.`
    case 'CHANGES_REQUESTED':
      return 'Changes requested: edit the post, then submit it for review again. Nothing is published.'
    case 'PUBLISHING': {
      const done = by('PUBLISHED').length
      return `Going out now to ${accountsWord(n)}: ${done} of ${n} published so far.`
    }
    case 'PUBLISHED':
      return n === 1 ? 'Published on its account.' : `Published on all ${n} accounts.`
    case 'FAILED': {
      const failed = by('FAILED').map(w.label)
      const published = by('PUBLISHED').map(w.label)
      if (published.length === 0) return `Failed: not published on ${list(failed)}.`
      return `Partly published: failed on ${list(failed)}; published on ${list(published)}.`
    }
    default:
      return ''
  }
}

/** What a target's line says about it, given its post's state. */
export function targetStatusText(post: PostRecord, t: TargetRecord, w: Wording): string {
  switch (t.status) {
    case 'PUBLISHED':
      return t.publishedAt ? `Published ${zonedText(t.publishedAt, w.timeZone)}.` : 'Published.'
    case 'PUBLISHING':
      return 'Going out now: the network is receiving it.'
    case 'FAILED':
      return 'Not published: the last attempt failed.'
    default:
      break
  }
  if (post.status === 'DRAFT') return 'Not published: the post is a draft.'
  if (post.status === 'IN_REVIEW') return 'Not published: waiting for review.'
  if (post.status === 'CHANGES_REQUESTED') return 'Not published: changes were requested.'
  if (post.status === 'SCHEDULED')
    return post.scheduledAt ? `Goes out ${zonedText(post.scheduledAt, w.timeZone)}.` : 'Goes out when scheduled.'
  if (t.error) return 'Waiting to try again (the last attempt did not go through).'
  return 'Waiting to go out.'
}

/** What to do about each target error (docs/decisions.md, "Target errors"). */
const ERROR_ACTIONS: Record<TargetErrorCode, { action: string; reconnect: boolean }> = {
  transient: {
    action: 'The network had a temporary problem. Retry; if it keeps failing, try again later.',
    reconnect: false,
  },
  rate_limited: {
    action: 'The network asked us to slow down. Retry in a little while.',
    reconnect: false,
  },
  rejected: {
    action:
      'The network refused the post as it was sent. Do what its message says (for example shorten the caption ' +
      'or replace a media file), then retry.',
    reconnect: false,
  },
  auth_expired: {
    action: "The account's sign-in has expired. Reconnect the account, then retry.",
    reconnect: true,
  },
  account_disconnected: {
    action: 'The account was disconnected before the post went out. Reconnect the account, then retry.',
    reconnect: true,
  },
  unconfirmed: {
    action:
      'We could not confirm the network received it. Check the account on the network first: retrying may ' +
      'publish it twice.',
    reconnect: false,
  },
}

/** The plain action for a target's error, and whether it needs the account reconnected. */
export function errorAction(t: TargetRecord): { action: string; reconnect: boolean } | null {
  if (!t.error) return null
  if (t.status === 'PENDING') return { action: 'We try again on our own; nothing to do yet.', reconnect: false }
  return ERROR_ACTIONS[t.error.code] ?? ERROR_ACTIONS.transient
}

/** What deleting the post does, in its state: only a post published somewhere "stays published there". */
export function deletionNote(post: PostRecord): string {
  const published = post.targets.filter((t) => t.status === 'PUBLISHED' || t.platformPostId !== null)
  if (published.length === 0) {
    return post.status === 'DRAFT'
      ? 'Nothing of this draft is on any network: deleting it removes it here only.'
      : 'Nothing of this post is on any network yet: deleting it cancels it.'
  }
  const keeps = [...new Set(published.map((t) => t.platform).filter((p) => !RULES[p].deleteSupported))]
  if (keeps.length > 0)
    return `These networks cannot delete a post through their API; it stays published there: ${keeps.map(networkName).join(', ')}.`
  return 'Without the box ticked, what is published stays on the networks.'
}
