import { describe, expect, it } from 'vitest'
import { checkProblemText, tightestCounts } from '../../../src/dashboard/client/lib/composer-check'

describe("the composer script's reading of the check", () => {
  it('shows per network the count nearest its budget (a thread part over it beats a short caption)', () => {
    const counts = tightestCounts([
      { platform: 'MICROBLOG_NET', length: 100, limit: 280, format: 'caption' },
      { platform: 'MICROBLOG_NET', length: 300, limit: 280, format: 'thread part 2' },
      { platform: 'PROFESSIONAL_NET', length: 100, limit: 3000, format: 'caption' },
    ])
    expect(counts.get('MICROBLOG_NET')?.format).toBe('thread part 2')
    expect(counts.get('PROFESSIONAL_NET')?.length).toBe(100)
  })

  it('says the counts are stale when the check failed, with the wait of a 429', () => {
    expect(checkProblemText(429, 12)).toBe('Too many checks at once: the counts will update again in 12 seconds.')
    expect(checkProblemText(429, 1)).toContain('in 1 second.')
    expect(checkProblemText(429, null)).toContain('shortly')
    expect(checkProblemText(500, null)).toContain('may be out of date')
    expect(checkProblemText(null, null)).toContain('cannot reach the server')
  })
})
