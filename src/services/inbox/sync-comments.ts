/**
 * The `comments` and `mentions` streams: comments on the account's published and imported posts of
 * the window (per target, with its own cursor), and the posts that mention the account. A row is
 * stored once per account, kind and network id; a new one records `comment.received` or
 * `mention.received` in the same transaction, never for the account's own comments, so each event
 * goes out once. Comment text is stored, never logged.
 */
import {
  type CommentTarget,
  insertNewComments,
  linkParents,
  newestMentionAt,
  type NewInboxCommentRow,
  selectCommentTargets,
} from '../../db/queries/inbox-store'
import { type AccountSyncRow, saveStreamCursor, upsertTargetCommentSync } from '../../db/queries/sync'
import { targetIntervalSec } from '../../domain/inbox-sync-policy'
import type { InboxKind } from '../../domain/vocabulary'
import { newIds } from '../../lib/ids'
import { CommentGone, type NetworkComment } from '../../networks/adapter'
import { newOutbox, recordEvents, sendOutbox } from '../webhooks/outbox'
import { toInboxCommentRecord } from './record'
import type { SyncRun } from './sync-context'

const DAY_MS = 86_400_000

export async function syncComments(run: SyncRun, intervalSec: number): Promise<void> {
  if (!run.adapter.listComments) return
  const list = await selectCommentTargets(run.deps.db, {
    accountId: run.account.id,
    since: new Date(run.now.getTime() - run.policy.windowDays * DAY_MS),
    now: run.now,
    limit: run.policy.targetsPerRun,
  })
  for (const target of list) {
    try {
      await syncTargetComments(run, target, intervalSec)
    } catch (err) {
      if (!(err instanceof CommentGone)) throw err
      // The post is gone from the network: its comments are not read again.
      await upsertTargetCommentSync(run.deps.db, {
        targetId: target.targetId,
        accountId: run.account.id,
        cursor: null,
        lastCommentAt: target.lastCommentAt,
        syncedAt: run.now,
        nextRunAt: new Date(run.now.getTime() + run.policy.windowDays * DAY_MS),
      })
    }
  }
}

async function syncTargetComments(run: SyncRun, target: CommentTarget, intervalSec: number): Promise<void> {
  const listComments = run.adapter.listComments!
  let cursor = target.cursor
  let newest = target.lastCommentAt
  let done = false
  for (let page = 0; page < run.policy.maxPages && !done; page++) {
    run.counts.networkCalls++
    const answer = await listComments.call(run.adapter, {
      ...run.call,
      post: { platformPostId: target.platformPostId, publishedAt: target.publishedAt, permalink: target.permalink },
      cursor,
      since: target.lastCommentAt,
    })
    await storeComments(run, { kind: 'comment', comments: answer.comments, target })
    newest = latest(newest, answer.comments)
    done = !answer.nextCursor
    cursor = answer.nextCursor
  }
  const age = run.now.getTime() - target.publishedAt.getTime()
  await upsertTargetCommentSync(run.deps.db, {
    targetId: target.targetId,
    accountId: run.account.id,
    // A listing read to its end starts again next time, from the newest comment known.
    cursor: done ? null : cursor,
    lastCommentAt: newest,
    syncedAt: run.now,
    nextRunAt: done ? new Date(run.now.getTime() + targetIntervalSec(intervalSec, age) * 1000) : run.now,
  })
}

export async function syncMentions(run: SyncRun, row: AccountSyncRow): Promise<void> {
  const listMentions = run.adapter.listMentions
  if (!listMentions) return
  const since = await newestMentionAt(run.deps.db, run.account.id)
  let cursor = row.cursor
  for (let page = 0; page < run.policy.maxPages; page++) {
    run.counts.networkCalls++
    const answer = await listMentions.call(run.adapter, { ...run.call, cursor, since })
    await storeComments(run, { kind: 'mention', comments: answer.comments, target: null })
    cursor = answer.nextCursor
    await saveStreamCursor(run.deps.db, { accountId: run.account.id, stream: 'mentions', holder: run.holder, cursor })
    if (!cursor) return
  }
}

function latest(current: Date | null, comments: NetworkComment[]): Date | null {
  let at = current
  for (const c of comments) if (!at || c.createdAt > at) at = c.createdAt
  return at
}

/** One page in one transaction: the new rows, their parents linked, and one event per new row. */
async function storeComments(
  run: SyncRun,
  page: { kind: InboxKind; comments: NetworkComment[]; target: CommentTarget | null },
): Promise<void> {
  if (page.comments.length === 0) return
  const outbox = newOutbox()
  await run.deps.db.transaction(async (tx) => {
    const inserted = await insertNewComments(tx, rowsOf(run, page))
    if (inserted.length === 0) return
    const linked = new Map((await linkParents(tx, run.account.id, page.kind)).map((l) => [l.id, l.parentId]))
    const announced = inserted.filter((r) => !r.fromAccount)
    const type = page.kind === 'comment' ? 'comment.received' : 'mention.received'
    const events = announced.map((r) => ({
      type,
      data: { ...toInboxCommentRecord({ ...r, parentId: linked.get(r.id) ?? r.parentId }) },
      now: run.now,
    })) as Parameters<typeof recordEvents>[3]
    await recordEvents(tx, outbox, run.account.workspaceId, events)
    if (page.kind === 'comment') run.counts.newComments += inserted.length
    else run.counts.newMentions += inserted.length
    run.counts.events += events.length
  })
  await sendOutbox(run.deps, outbox)
}

function rowsOf(
  run: SyncRun,
  page: { kind: InboxKind; comments: NetworkComment[]; target: CommentTarget | null },
): NewInboxCommentRow[] {
  const ids = newIds('inboxComment', page.comments.length)
  return page.comments.map((c, i) => ({
    id: ids[i]!,
    workspaceId: run.account.workspaceId,
    accountId: run.account.id,
    platform: run.account.platform,
    kind: page.kind,
    targetId: page.target?.targetId ?? null,
    postId: page.target?.postId ?? null,
    externalId: c.externalId,
    parentExternalId: c.parentExternalId,
    postExternalId: c.postExternalId ?? page.target?.platformPostId ?? null,
    authorExternalId: c.author.externalId,
    authorName: c.author.name,
    authorHandle: c.author.handle,
    authorAvatarUrl: c.author.avatarUrl,
    text: c.text,
    permalink: c.permalink,
    fromAccount: c.fromAccount,
    // The account's own comments are never news to it.
    state: c.hidden ? 'hidden' : c.fromAccount ? 'read' : 'unread',
    readAt: c.fromAccount ? run.now : null,
    hiddenAt: c.hidden ? run.now : null,
    createdAt: c.createdAt,
    receivedAt: run.now,
    updatedAt: run.now,
  }))
}
