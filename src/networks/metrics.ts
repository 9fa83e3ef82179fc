/**
 * Insight figures as networks send them, read one way for every adapter. A figure the network did
 * not give is null, never 0 (the analytics store null as "not reported"). Networks send counts as
 * numbers or, when they may outgrow a double's exact range (64-bit counters), as decimal text.
 */
import type { PostFigures } from './inbox-adapter'

/** Decimal digits, with an optional fraction: the only text read as a count. */
const DECIMAL = /^\d+(\.\d+)?$/

/**
 * A network's figure as a count: a non-negative finite number, or decimal text such as "12345";
 * anything else (missing, null, empty or other text, negative, NaN, Infinity) is null.
 */
export function metric(value: unknown): number | null {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value) : NaN
  return Number.isFinite(n) && n >= 0 ? n : null
}

/** The sum of figures that add up to one of ours (reposts and quotes as shares); null when none was given. */
export function metricSum(...values: unknown[]): number | null {
  const given = values.map(metric).filter((n): n is number => n !== null)
  return given.length ? given.reduce((a, b) => a + b, 0) : null
}

/** Every figure not reported: what a post's figures start from before the network's are read in. */
export const NO_FIGURES: Readonly<PostFigures> = Object.freeze({
  likes: null,
  comments: null,
  shares: null,
  views: null,
  saves: null,
  clicks: null,
  impressions: null,
  reach: null,
})
