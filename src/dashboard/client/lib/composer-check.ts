/** The composer check's answer and what the composer script makes of it (pure: no DOM). */

/** One network's count of a text against its budget, as the check answers it. */
export interface CheckCount {
  platform: string
  length: number
  limit: number
  format: string
}

/** The composer check's answer (the API's dry run, shaped for the page). */
export interface CheckAnswer {
  counts?: CheckCount[]
  fields?: Record<string, string[]>
  warnings?: Array<{ field: string; message: string }>
}

/** Per network, the count closest to (or furthest over) its budget. */
export function tightestCounts(counts: readonly CheckCount[]): Map<string, CheckCount> {
  const tightest = new Map<string, CheckCount>()
  for (const count of counts) {
    const seen = tightest.get(count.platform)
    if (!seen || count.length / count.limit > seen.length / seen.limit) tightest.set(count.platform, count)
  }
  return tightest
}

/**
 * The sentence shown when the check did not answer: `status` null when the server was not reached,
 * `retryAfter` the seconds a 429 asked to wait.
 */
export function checkProblemText(status: number | null, retryAfter: number | null): string {
  if (status === 429) {
    const wait = retryAfter ? ` in ${retryAfter} second${retryAfter === 1 ? '' : 's'}` : ' shortly'
    return `Too many checks at once: the counts will update again${wait}.`
  }
  if (status === null) return 'The live check cannot reach the server: the counts below may be out of date.'
  return 'The live check failed: the counts below may be out of date. Saving still checks everything.'
}
