/**
 * The totals of `GET /v1/analytics`'s period, overall and per network: the targets published, how
 * many have figures, and each figure summed over their latest snapshots. A figure the network does
 * not report stays null (never 0); a sum is null when no target of it has that figure.
 */
import { selectPeriodLabelTotals, selectPeriodTotals, type PeriodFilter } from '../../db/queries/analytics-period'
import type { DbOrTx } from '../../db/types'
import type { PlatformId } from '../../domain/vocabulary'
import { engagementOf, engagementRateOf, FIGURE_KEYS, type MetricFigures, reportedFigures } from './engagement'

export interface Totals {
  /** Targets published in the period. */
  posts: number
  /** Of them, those with collected figures. */
  collected: number
  metrics: MetricFigures
  engagement: number | null
  engagementRate: number | null
}

export interface LabelTotals extends Totals {
  labelId: string
  name: string
  color: string
}

export interface PeriodTotals {
  totals: Totals
  byPlatform: Array<Totals & { platform: PlatformId; accounts: number }>
  /** Per label of the targets' posts: a target whose post has two labels counts in both. */
  byLabel: LabelTotals[]
}

const addKnown = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b)

function withRates(posts: number, collected: number, metrics: MetricFigures): Totals {
  const engagement = engagementOf(metrics)
  return { posts, collected, metrics, engagement, engagementRate: engagementRateOf(metrics, engagement).rate }
}

export async function periodTotals(db: DbOrTx, filter: PeriodFilter): Promise<PeriodTotals> {
  const rows = await selectPeriodTotals(db, filter)
  const byPlatform = rows.map((r) => {
    const metrics = reportedFigures(r.platform, r)
    return { platform: r.platform, accounts: r.accounts, ...withRates(r.posts, r.collected, metrics) }
  })
  const sum = Object.fromEntries(FIGURE_KEYS.map((k) => [k, null])) as unknown as MetricFigures
  for (const p of byPlatform) for (const key of FIGURE_KEYS) sum[key] = addKnown(sum[key], p.metrics[key])
  const posts = byPlatform.reduce((n, p) => n + p.posts, 0)
  const collected = byPlatform.reduce((n, p) => n + p.collected, 0)
  return { totals: withRates(posts, collected, sum), byPlatform, byLabel: await labelTotals(db, filter) }
}

async function labelTotals(db: DbOrTx, filter: PeriodFilter): Promise<LabelTotals[]> {
  const rows = await selectPeriodLabelTotals(db, filter)
  return rows.map((r) => {
    const metrics = Object.fromEntries(FIGURE_KEYS.map((k) => [k, r[k]])) as unknown as MetricFigures
    return { labelId: r.labelId, name: r.name, color: r.color, ...withRates(r.posts, r.collected, metrics) }
  })
}
