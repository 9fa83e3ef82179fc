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
 * The report over `posts`. `reportsEngagement` false: the network(s) report no per-post
 * interactions at all (`not_collected` whatever the history).
 */
export function buildReport(
  timezone: string,
  posts: readonly Observation[],
  reportsEngagement: boolean,
): BestTimesReport {
  const samples = posts.filter((p): p is Observation & { engagement: number } => p.engagement !== null)
  const reason = reasonFor(posts.length, samples, reportsEngagement)
  const base = { timezone, observations: samples.length, minObservations: MIN_OBSERVATIONS }
  if (reason !== 'ok') return { ...base, insufficient: true, reason, slots: [], grid: emptyGrid() }

  const perAccount = new Map<string, number[]>()
  for (const s of samples) {
    const list = perAccount.get(s.accountId)
    if (list) list.push(s.engagement)
    else perAccount.set(s.accountId, [s.engagement])
  }
  const typical = new Map([...perAccount].map(([id, values]) => [id, Math.max(1, median(values))]))

  const sum = new Float64Array(7 * 24)
  const count = new Uint32Array(7 * 24)
  for (const s of samples) {
    const cell = s.weekday * 24 + s.hour
    sum[cell] = sum[cell]! + s.engagement / typical.get(s.accountId)!
    count[cell] = count[cell]! + 1
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

function reasonFor(
  postCount: number,
  samples: ReadonlyArray<{ engagement: number }>,
  reportsEngagement: boolean,
): BestTimesReason {
  if (!reportsEngagement) return 'not_collected'
  if (postCount < MIN_OBSERVATIONS) return 'few_posts'
  if (samples.length === 0) return 'not_collected'
  if (samples.length < MIN_OBSERVATIONS) return 'few_samples'
  if (median(samples.map((s) => s.engagement)) < LOW_ENGAGEMENT_MEDIAN) return 'low_engagement'
  return 'ok'
}
