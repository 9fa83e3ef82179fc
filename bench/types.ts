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
/**
 * Times several functions request by request in turn (a, b, a, b, ...), so a drift of the machine
 * (JIT warm-up, GC, other load) weighs on each alike; each list comes back sorted.
 */
export async function timeInterleaved(n: number, fns: Array<() => Promise<unknown>>, warmup = 50): Promise<number[][]> {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn()
  const out = fns.map(() => [] as number[])
  for (let i = 0; i < n; i++) {
    for (const [k, fn] of fns.entries()) {
      const t = performance.now()
      await fn()
      out[k]!.push(performance.now() - t)
    }
  }
  return out.map((times) => times.sort((a, b) => a - b))
}

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
