/**
 * One analytics collection pass (the scheduled job every minute, and `npm run cli -- analytics
 * collect`). Per ACTIVE account: the follower count once per day (the workspace's calendar day),
 * and the metrics of its published targets on the schedule of `COLLECTION_SCHEDULE`. Work per pass
 * is bounded (`limits`); what is left waits for the next pass, stalest first. A network that
 * reports nothing is stored as null, never 0. An account whose network fails is logged (ids and
 * error class only) and skipped; the pass and publishing go on.
 */
import type { Connection, PlatformId } from '../../domain/vocabulary'
import {
  insertMetricSnapshots,
  selectAccountsDueFollowers,
  selectAccountsToCollect,
  selectTargetsDueMetrics,
  upsertFollowerSnapshot,
} from '../../db/queries/analytics-collection'
import type { Deps } from '../../deps'
import { describeError } from '../../infra/logger'
import { newMetricSnapshotId } from './ids'
import type { Insights, InsightsInput } from '../../networks/adapter'
import { rulesFor } from '../../domain/rules/index'
import { NetworkFailure } from '../../networks/http'
import { usableCredentials } from '../accounts/credentials'
import { cleanFigure, COLLECTION_MAX_AGE_HOURS, COLLECTION_SCHEDULE } from './engagement'
import { finishRefresh, refreshFailure, refreshWork } from './collect-refresh'
import { NO_FIGURES } from '../../networks/metrics'

export type CollectDeps = Pick<Deps, 'db' | 'cipher' | 'networks' | 'logger' | 'clock'>

export interface CollectLimits {
  /** Accounts whose network is called in one pass. */
  accounts: number
  /** Targets whose metrics are read in one pass. */
  targets: number
  /** Posts per `fetchInsights` call. */
  batch: number
}

export const DEFAULT_COLLECT_LIMITS: CollectLimits = { accounts: 100, targets: 500, batch: 50 }

export interface CollectReport {
  accounts: number
  followerSnapshots: number
  targetSnapshots: number
  failedAccounts: number
}

interface DueTarget {
  id: string
  accountId: string
  platformPostId: string
  publishedAt: Date
}

const HOUR_MS = 3_600_000

export async function collectAnalytics(
  deps: CollectDeps,
  options: { workspaceId?: string; now: Date; limits?: Partial<CollectLimits> },
): Promise<CollectReport> {
  const { db } = deps
  const now = options.now
  const limits = { ...DEFAULT_COLLECT_LIMITS, ...options.limits }
  const nowIso = now.toISOString()

  // Accounts without today's follower snapshot (today in the workspace's time zone).
  const followersDue = await selectAccountsDueFollowers(db, {
    workspaceId: options.workspaceId,
    nowIso,
    limit: limits.accounts,
  })
  // Published targets whose last collection is older than their age's interval, stalest first.
  const dueRows = await selectTargetsDueMetrics(db, {
    workspaceId: options.workspaceId,
    now,
    nowIso,
    since: new Date(now.getTime() - COLLECTION_MAX_AGE_HOURS * HOUR_MS),
    schedule: COLLECTION_SCHEDULE,
    limit: limits.targets,
  })
  const due = dueRows as DueTarget[]

  // Refreshes asked for come first: their accounts are read whatever their schedule.
  const refreshes = await refreshWork(db, { workspaceId: options.workspaceId, now, limits })
  const byAccount = new Map<string, { followers: boolean; targets: DueTarget[] }>()
  for (const r of refreshes) byAccount.set(r.accountId, { followers: true, targets: r.targets })
  for (const { id } of followersDue) if (!byAccount.has(id)) byAccount.set(id, { followers: true, targets: [] })
  for (const t of due) {
    const entry = byAccount.get(t.accountId) ?? { followers: false, targets: [] }
    if (!entry.targets.some((x) => x.id === t.id)) entry.targets.push(t)
    byAccount.set(t.accountId, entry)
  }
  const refreshOf = new Map(refreshes.map((r) => [r.accountId, r]))
  const accountIds = [...byAccount.keys()].slice(0, limits.accounts)
  const report: CollectReport = { accounts: 0, followerSnapshots: 0, targetSnapshots: 0, failedAccounts: 0 }
  if (accountIds.length === 0) return report

  const rows = await selectAccountsToCollect(db, accountIds, nowIso)
  for (const account of rows) {
    const work = byAccount.get(account.id)!
    report.accounts++
    try {
      const insights = await readInsights(deps, account, work, now, limits.batch)
      if (work.followers) {
        await upsertFollowerSnapshot(db, {
          accountId: account.id,
          day: account.day,
          followers: insights.followers,
          collectedAt: now,
        })
        report.followerSnapshots++
      }
      const known = new Set(work.targets.map((t) => t.id))
      const values = insights.posts
        .filter((p) => known.has(p.targetId))
        .map((p) => ({
          id: newMetricSnapshotId(),
          targetId: p.targetId,
          collectedAt: now,
          likes: p.likes,
          comments: p.comments,
          shares: p.shares,
          views: p.views,
          saves: p.saves,
          clicks: p.clicks ?? null,
          impressions: p.impressions ?? null,
          reach: p.reach ?? null,
        }))
      if (values.length > 0) await insertMetricSnapshots(db, values)
      report.targetSnapshots += values.length
      await finishRefresh(db, refreshOf.get(account.id), { at: now, error: null })
    } catch (err) {
      report.failedAccounts++
      logSkippedAccount(deps, account, err)
      await finishRefresh(db, refreshOf.get(account.id), { at: now, error: refreshFailure(err) })
    }
  }
  return report
}

/**
 * Why an account was skipped this pass, logged once with its ids and the error's class (the
 * error's text may quote a network's answer, tokens included). A network failure is the network's
 * business; anything else (an adapter's bug, our own) is an error on our side.
 */
function logSkippedAccount(deps: CollectDeps, account: { id: string; platform: PlatformId }, err: unknown): void {
  const fields = { accountId: account.id, platform: account.platform, ...describeError(err) }
  if (err instanceof NetworkFailure) deps.logger.warn('analytics_collect_failed', fields)
  else deps.logger.error('analytics_collect_failed', { ...fields, unexpected: true })
}

/**
 * The account's followers and its due targets' metrics. A platform whose registry reports nothing,
 * or a connection without an insights endpoint, answers null without a network call.
 */
async function readInsights(
  deps: CollectDeps,
  account: { id: string; platform: PlatformId; connection: Connection; credentials: string },
  work: { followers: boolean; targets: DueTarget[] },
  now: Date,
  batch: number,
): Promise<Insights> {
  const platform = account.platform
  const rules = rulesFor(platform).insights
  const adapter = deps.networks.adapterFor(platform, account.connection)
  const nulls = (list: DueTarget[]): Insights['posts'] => list.map((t) => ({ targetId: t.id, ...NO_FIGURES }))
  if (!adapter?.fetchInsights || (!rules.followers && rules.postMetrics.length === 0))
    return { followers: null, posts: nulls(work.targets) }

  const usable = await usableCredentials(deps, account, adapter)
  if (!usable.ok) throw new NetworkFailure(usable.kind, usable.message)
  const credentials = usable.credentials
  const base: Omit<InsightsInput, 'posts'> = {
    accountId: account.id,
    connection: account.connection,
    credentials,
    fetch: deps.networks.fetch,
    baseUrl: deps.networks.baseUrlFor(platform, account.connection, credentials),
    now,
  }
  let followers: number | null = null
  const posts: Insights['posts'] = []
  const chunks: DueTarget[][] = []
  for (let i = 0; i < work.targets.length; i += batch) chunks.push(work.targets.slice(i, i + batch))
  if (chunks.length === 0) chunks.push([])
  for (const [i, chunk] of chunks.entries()) {
    const answer = await adapter.fetchInsights({
      ...base,
      posts: chunk.map((t) => ({ targetId: t.id, platformPostId: t.platformPostId, publishedAt: t.publishedAt })),
    })
    if (i === 0) followers = rules.followers ? cleanFigure(answer.followers) : null
    for (const p of answer.posts) {
      posts.push({
        targetId: p.targetId,
        likes: cleanFigure(p.likes),
        comments: cleanFigure(p.comments),
        shares: cleanFigure(p.shares),
        views: cleanFigure(p.views),
        saves: cleanFigure(p.saves),
        clicks: cleanFigure(p.clicks),
        impressions: cleanFigure(p.impressions),
        reach: cleanFigure(p.reach),
      })
    }
  }
  return { followers, posts }
}
