/**
 * The statistics of a best-times report, as a pure function of the history (no I/O), so tests and
 * the benchmark can reason about it directly.
 *
 * - A post's engagement: `engagementOf` (likes + comments + shares + saves; views excluded).
 * - An account's typical post: the median engagement of its sampled posts (robust to a viral outlier).
 * - A post's score: engagement / max(typical, 1): a multiple of that account's typical post, so a
 *   2,000-follower and a 200,000-follower account can be pooled.
 * - A slot (weekday x hour of publication in the workspace time zone): the mean score of its posts,
 *   shrunk toward 1 (the typical post) by an empirical-Bayes style prior worth `PRIOR_WEIGHT` posts:
 *   score = (sum of scores + k * 1) / (n + k). Two lucky posts move a slot a little; twenty
 *   steady ones move it almost all the way to their mean.
 */
export const MIN_OBSERVATIONS = 20
export const PRIOR_WEIGHT = 5
/** Below this median engagement per post (interactions), counting noise swamps any hour's effect. */
export const LOW_ENGAGEMENT_MEDIAN = 3
export const SLOT_MINUTES = 60
export const TOP_SLOTS = 10

export type BestTimesReason = 'ok' | 'few_posts' | 'few_samples' | 'low_engagement' | 'not_collected'

/** One published post of the history; `engagement` null when no usable figures were collected. */
export interface Observation {
  accountId: string
  /** 0 = Sunday, in the workspace time zone. */
  weekday: number
  /** Hour of publication (0-23), local wall-clock time in the workspace time zone. */
  hour: number
  engagement: number | null
}

export interface BestTimesSlot {
  weekday: number
  minutes: number
  score: number
  samples: number
}

export interface BestTimesReport {
  timezone: string
  observations: number
  minObservations: number
  insufficient: boolean
  reason: BestTimesReason
  slots: BestTimesSlot[]
  grid: Array<Array<number | null>>
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const round2 = (n: number) => Math.round(n * 100) / 100
const emptyGrid = () => Array.from({ length: 7 }, () => Array<number | null>(24).fill(null))

/**
 * What a report needs of a history, in a few rows whatever its length: the database computes it
 * (`selectSlotTotals`, `selectEngagementMedians`) and `summarize` computes it from observations.
 */
export interface HistorySummary {
  /** Posts in the history, with or without figures. */
  posts: number
  /** Posts with an engagement figure (samples). */
  samples: number
  /** Median engagement of the samples (NaN without any). */
  medianEngagement: number
  /** Each account's median engagement over its samples. */
  accountMedians: Map<string, number>
  /** Per account and slot: its samples and their total engagement. */
  cells: Array<{ accountId: string; weekday: number; hour: number; samples: number; total: number }>
}

/** The summary of `posts` (the same figures the database answers for them). */
export function summarize(posts: readonly Observation[]): HistorySummary {
  const samples = posts.filter((p): p is Observation & { engagement: number } => p.engagement !== null)
  const perAccount = new Map<string, number[]>()
  const cells = new Map<string, HistorySummary['cells'][number]>()
  for (const s of samples) {
    const list = perAccount.get(s.accountId)
    if (list) list.push(s.engagement)
    else perAccount.set(s.accountId, [s.engagement])
    const key = `${s.accountId} ${s.weekday} ${s.hour}`
    const cell = cells.get(key)
    if (cell) {
      cell.samples++
      cell.total += s.engagement
    } else cells.set(key, { accountId: s.accountId, weekday: s.weekday, hour: s.hour, samples: 1, total: s.engagement })
  }
  return {
    posts: posts.length,
    samples: samples.length,
    medianEngagement: median(samples.map((s) => s.engagement)),
    accountMedians: new Map([...perAccount].map(([id, values]) => [id, median(values)])),
    cells: [...cells.values()],
  }
}

/**
 * The report over `posts`. `reportsEngagement` false: the network(s) report no per-post
 * interactions at all (`not_collected` whatever the history).
 */
export function buildReport(
  timezone: string,
  posts: readonly Observation[],
  reportsEngagement: boolean,
): BestTimesReport {
  return reportFromSummary(timezone, summarize(posts), reportsEngagement)
}

/** The report over a history given by its summary. */
export function reportFromSummary(
  timezone: string,
  summary: HistorySummary,
  reportsEngagement: boolean,
): BestTimesReport {
  const reason = reasonFor(summary, reportsEngagement)
  const base = { timezone, observations: summary.samples, minObservations: MIN_OBSERVATIONS }
  if (reason !== 'ok') return { ...base, insufficient: true, reason, slots: [], grid: emptyGrid() }

  // A slot's score sum: each account's total there over its typical post (the sum of its posts' scores).
  const sum = new Float64Array(7 * 24)
  const count = new Uint32Array(7 * 24)
  const cells = [...summary.cells].sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0))
  for (const c of cells) {
    if (c.samples === 0) continue
    const typical = Math.max(1, summary.accountMedians.get(c.accountId) ?? 1)
    const cell = c.weekday * 24 + c.hour
    sum[cell] = sum[cell]! + c.total / typical
    count[cell] = count[cell]! + c.samples
  }
  const grid = emptyGrid()
  const slots: BestTimesSlot[] = []
  for (let cell = 0; cell < 7 * 24; cell++) {
    const n = count[cell]!
    if (n === 0) continue
    const score = round2((sum[cell]! + PRIOR_WEIGHT) / (n + PRIOR_WEIGHT))
    const weekday = Math.floor(cell / 24)
    const hour = cell % 24
    grid[weekday]![hour] = score
    slots.push({ weekday, minutes: hour * SLOT_MINUTES, score, samples: n })
  }
  slots.sort((a, b) => b.score - a.score || b.samples - a.samples || a.weekday - b.weekday || a.minutes - b.minutes)
  return { ...base, insufficient: false, reason, slots: slots.slice(0, TOP_SLOTS), grid }
}

function reasonFor(summary: HistorySummary, reportsEngagement: boolean): BestTimesReason {
  if (!reportsEngagement) return 'not_collected'
  if (summary.posts < MIN_OBSERVATIONS) return 'few_posts'
  if (summary.samples === 0) return 'not_collected'
  if (summary.samples < MIN_OBSERVATIONS) return 'few_samples'
  if (summary.medianEngagement < LOW_ENGAGEMENT_MEDIAN) return 'low_engagement'
  return 'ok'
}
