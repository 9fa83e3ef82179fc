/**
 * What the inbox pages read and do, through the inbox services (the same ones `/v1/inbox` calls): the
 * filtered list, one comment with its thread, the unread count, and the actions. The pages import the
 * services through this file only, so the view components take plain records.
 */
import { replyBudgetOf } from '../../../domain/reply-text'
import { RULES } from '../../../domain/rules/index'
import type { PlatformId } from '../../../domain/vocabulary'
import type { Deps } from '../../../deps'
import { deleteInboxComment, likeInboxComment, setCommentHidden } from '../../../services/inbox/actions'
import {
  countUnread,
  getInboxComment,
  listInboxComments,
  listMentions,
  markCommentsRead,
} from '../../../services/inbox/comments'
import { replyToComment } from '../../../services/inbox/reply'
import type { InboxCommentRecord } from '../../../services/inbox/record'
import { mergePages, type SourcePage, splitCursor } from './merge'

/** A comment or mention as the API answers it (`InboxComment`), its network typed. */
export type InboxComment = Omit<InboxCommentRecord, 'platform'> & { platform: PlatformId }

const typed = (c: InboxCommentRecord): InboxComment => c as InboxComment

export const INBOX_STATES = ['unread', 'read', 'replied', 'hidden'] as const
export const INBOX_KINDS = ['comment', 'mention'] as const

/** The list's filters as the address carries them (`?accountId=&platform=&state=&kind=&cursor=`). */
export interface InboxFilters {
  accountId?: string
  platform?: PlatformId
  state?: (typeof INBOX_STATES)[number]
  kind?: (typeof INBOX_KINDS)[number]
  postId?: string
  cursor?: string
  /** The member's groups (null: the whole workspace): never a query parameter, set from the session. */
  visibleGroupIds?: readonly string[] | null
}

export interface InboxPage {
  items: InboxComment[]
  nextCursor: string | null
}

const oneOf = <T extends string>(list: readonly T[], v: string | undefined): T | undefined =>
  v !== undefined && (list as readonly string[]).includes(v) ? (v as T) : undefined

/** The filters of a query string; anything unknown is left out (never an error: it is an address). */
export function filtersOf(query: Record<string, string | undefined>): InboxFilters {
  const platforms = Object.keys(RULES) as PlatformId[]
  const text = (v: string | undefined) => (v && v.length <= 200 ? v : undefined)
  return {
    accountId: text(query.accountId),
    platform: oneOf(platforms, query.platform),
    state: oneOf(INBOX_STATES, query.state),
    kind: oneOf(INBOX_KINDS, query.kind),
    cursor: text(query.cursor),
  }
}

/** The query string of `filters` (without the cursor unless asked), for links that keep them. */
export function queryOf(filters: InboxFilters, withCursor = false): string {
  const q = new URLSearchParams()
  for (const k of ['accountId', 'platform', 'state', 'kind'] as const) {
    const v = filters[k]
    if (v) q.set(k, v)
  }
  if (withCursor && filters.cursor) q.set('cursor', filters.cursor)
  const s = q.toString()
  return s ? `?${s}` : ''
}

/** One source's page (comments, or mentions), or none when that source is filtered out or used up. */
async function sourcePage(
  deps: Deps,
  workspaceId: string,
  kind: 'comment' | 'mention',
  input: { filters: InboxFilters; cursor: string | null | undefined; limit: number },
): Promise<SourcePage<InboxComment> | null> {
  const { filters, cursor, limit } = input
  if (cursor === null || (filters.kind && filters.kind !== kind)) return null
  if (kind === 'mention' && filters.postId) return null
  const query = {
    accountId: filters.accountId,
    platform: filters.platform,
    state: filters.state,
    cursor,
    limit,
    visibleGroupIds: filters.visibleGroupIds ?? null,
  }
  const page =
    kind === 'comment'
      ? await listInboxComments(deps.db, workspaceId, { ...query, postId: filters.postId })
      : await listMentions(deps.db, workspaceId, query)
  return { items: page.data.map(typed), nextCursor: page.nextCursor, cursor }
}

/**
 * One page of the workspace's comments and mentions together, newest first: a page of each (the
 * services list them apart), merged; the next page's cursor carries both sources' places.
 */
export async function listInbox(
  deps: Deps,
  workspaceId: string,
  filters: InboxFilters,
  limit = 30,
): Promise<InboxPage> {
  const cursors = splitCursor(filters.cursor)
  const [comments, mentions] = await Promise.all([
    sourcePage(deps, workspaceId, 'comment', { filters, cursor: cursors[0], limit }),
    sourcePage(deps, workspaceId, 'mention', { filters, cursor: cursors[1], limit }),
  ])
  return mergePages([comments, mentions], limit)
}

/** Threads read whole on the post page (each a query): the newest ones. */
const POST_THREADS = 30

/**
 * A post's comments with their whole threads: the list (others' comments) and, for its newest top
 * comments, the replies under them, the account's own among them (the list leaves those out).
 */
export async function listPostComments(deps: Deps, workspaceId: string, postId: string): Promise<InboxComment[]> {
  const { items } = await listInbox(deps, workspaceId, { postId }, 100)
  const ids = new Set(items.map((c) => c.id))
  const roots = items.filter((c) => c.parentId === null || !ids.has(c.parentId)).slice(0, POST_THREADS)
  const threads = await Promise.all(roots.map((r) => readComment(deps, workspaceId, r.id)))
  const all = new Map(items.map((c) => [c.id, c]))
  for (const { thread } of threads) for (const c of thread) if (!all.has(c.id)) all.set(c.id, c)
  return [...all.values()]
}

/** A comment and the thread it belongs to (what it answers, it, the replies under it; oldest first). */
export async function readComment(
  deps: Deps,
  workspaceId: string,
  id: string,
): Promise<{ comment: InboxComment; thread: InboxComment[] }> {
  const found = await getInboxComment(deps.db, workspaceId, id)
  return { comment: typed(found.comment), thread: [...found.ancestors, found.comment, ...found.replies].map(typed) }
}

/** Marks comments read (or unread again). */
export const markRead = (
  deps: Deps,
  workspaceId: string,
  change: { ids: string[]; read: boolean; visibleGroupIds: readonly string[] | null },
) => markCommentsRead(deps.db, { workspaceId, ...change, now: deps.clock.now() })

/** The workspace's unread comments and mentions. */
export const unreadCount = async (
  deps: Pick<Deps, 'db'>,
  workspaceId: string,
  visibleGroupIds: readonly string[] | null = null,
): Promise<number> => (await countUnread(deps.db, workspaceId, { visibleGroupIds })).unread

export type InboxAction = 'reply' | 'hide' | 'unhide' | 'delete' | 'like'

/** Runs an action through the inbox service, as `POST /v1/inbox/comments/{id}/...` does. */
export async function runAction(
  deps: Deps,
  input: { workspaceId: string; commentId: string; action: InboxAction; text?: string; idempotencyKey?: string },
): Promise<void> {
  const { workspaceId, commentId } = input
  const now = deps.clock.now()
  if (input.action === 'reply')
    await replyToComment(deps, {
      workspaceId,
      commentId,
      text: input.text ?? '',
      now,
      idempotencyKey: input.idempotencyKey,
    })
  else if (input.action === 'hide' || input.action === 'unhide')
    await setCommentHidden(deps, { workspaceId, commentId, hidden: input.action === 'hide' })
  else if (input.action === 'delete') await deleteInboxComment(deps, { workspaceId, commentId })
  else await likeInboxComment(deps, { workspaceId, commentId })
}

/** What a network lets the inbox do (the registry's `inbox`). */
export const inboxRules = (platform: PlatformId) => RULES[platform].inbox

/** A reply's budget on `platform` (the service's) and how it is counted (the caption's counting). */
export function replyBudget(platform: PlatformId) {
  const c = RULES[platform].caption
  return {
    max: replyBudgetOf(platform),
    rule: {
      counting: c.counting,
      urlWeight: c.urlWeight,
      normalization: c.normalization,
      mentionDomainFree: c.mentionDomainFree,
    },
  }
}
