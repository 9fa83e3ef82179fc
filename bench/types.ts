/** One benchmark: `npm run bench [-- name…]` runs the selected ones and prints what each measured. */
export interface Benchmark {
  name: string
  description: string
  run(): Promise<Array<Record<string, string | number>>>
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i]!
}

export const round = (n: number, digits = 2) => Number(n.toFixed(digits))

/** Runs `fn` `n` times after `warmup` runs; returns sorted durations in milliseconds. */
export async function timeMany(n: number, fn: () => Promise<unknown>, warmup = Math.min(20, n)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn()
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await fn()
    out.push(performance.now() - t)
  }
  return out.sort((a, b) => a - b)
}
