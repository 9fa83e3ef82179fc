/**
 * The `posts` stream: the account's recent posts read from the network's listing (the window's
 * days on the first run, then what is newer than the last success), each kept as a read-only
 * external post unless a target of the account already carries its network id (a post made here).
 * Its figures go into `target_metric_snapshots`, so analytics and best times cover it. One
 * transaction per page.
 */
import { insertExternalPosts, insertSnapshots, selectKnownNetworkPosts } from '../../db/queries/external-posts'
import { saveStreamCursor, type AccountSyncRow } from '../../db/queries/sync'
import { newId } from '../../lib/ids'
import type { NetworkPost } from '../../networks/adapter'
import { cleanFigure } from '../analytics/engagement'
import { newMetricSnapshotId } from '../analytics/ids'
import type { SyncRun } from './sync-context'

const DAY_MS = 86_400_000
/** A post published just before the last success may be listed late: read a little overlap. */
const OVERLAP_MS = 3_600_000

export async function syncPosts(run: SyncRun, row: AccountSyncRow): Promise<void> {
  const list = run.adapter.listPosts
  if (!list) return
  const windowStart = new Date(run.now.getTime() - run.policy.windowDays * DAY_MS)
  const since = row.lastSuccessAt
    ? new Date(Math.max(windowStart.getTime(), row.lastSuccessAt.getTime() - OVERLAP_MS))
    : windowStart
  let cursor = row.cursor
  for (let page = 0; page < run.policy.maxPages; page++) {
    run.counts.networkCalls++
    const answer = await list.call(run.adapter, { ...run.call, cursor, since })
    const wanted = answer.posts.filter((p) => p.publishedAt >= since)
    await storePostPage(run, wanted)
    // Newest first: a page that reached past `since` ends the listing.
    const done = !answer.nextCursor || wanted.length < answer.posts.length
    cursor = done ? null : answer.nextCursor
    await saveStreamCursor(run.deps.db, { accountId: run.account.id, stream: 'posts', holder: run.holder, cursor })
    if (done) return
  }
}

async function storePostPage(run: SyncRun, page: NetworkPost[]): Promise<void> {
  if (page.length === 0) return
  const { account, now } = run
  await run.deps.db.transaction(async (tx) => {
    const known = await selectKnownNetworkPosts(
      tx,
      account.id,
      page.map((p) => p.platformPostId),
    )
    const byId = new Map(known.map((k) => [k.platformPostId, k]))
    const fresh = dedupe(page.filter((p) => !byId.has(p.platformPostId)))
    const rows = fresh.map((p) => externalPostRows(run, p))
    await insertExternalPosts(tx, rows)
    // Figures of imported posts only: posts made here are read by the analytics collection.
    const snapshots = [
      ...rows.map((r, i) => snapshotOf(r.target.id as string, fresh[i]!, now)),
      ...page
        .filter((p) => byId.get(p.platformPostId)?.source === 'external')
        .map((p) => snapshotOf(byId.get(p.platformPostId)!.targetId, p, now)),
    ].filter((s) => s !== null)
    await insertSnapshots(tx, snapshots)
    run.counts.importedPosts += rows.length
  })
}

function dedupe(list: NetworkPost[]): NetworkPost[] {
  const seen = new Set<string>()
  return list.filter((p) => {
    if (seen.has(p.platformPostId)) return false
    seen.add(p.platformPostId)
    return true
  })
}

function externalPostRows(run: SyncRun, p: NetworkPost) {
  const postId = newId('post')
  const { account, now } = run
  return {
    post: {
      id: postId,
      workspaceId: account.workspaceId,
      status: 'PUBLISHED' as const,
      source: 'external' as const,
      type: 'IMAGE' as const,
      caption: p.text,
      publishedAt: p.publishedAt,
      createdAt: now,
      updatedAt: now,
    },
    target: {
      id: newId('target'),
      postId,
      workspaceId: account.workspaceId,
      accountId: account.id,
      platform: account.platform,
      status: 'PUBLISHED' as const,
      permalink: p.permalink,
      platformPostId: p.platformPostId,
      publishedAt: p.publishedAt,
      createdAt: now,
      updatedAt: now,
    },
  }
}

/** The post's figures as a snapshot; null when the network reported none of them. */
function snapshotOf(targetId: string, p: NetworkPost, now: Date) {
  const m = p.metrics
  const figures = {
    likes: cleanFigure(m.likes),
    comments: cleanFigure(m.comments),
    shares: cleanFigure(m.shares),
    views: cleanFigure(m.views),
    saves: cleanFigure(m.saves),
    clicks: cleanFigure(m.clicks),
    impressions: cleanFigure(m.impressions),
    reach: cleanFigure(m.reach),
  }
  if (Object.values(figures).every((v) => v === null)) return null
  return { id: newMetricSnapshotId(), targetId, collectedAt: now, ...figures }
}
