import { describe, expect, it } from 'vitest'
import { metric, metricSum } from '../../src/networks/metrics'

describe('insight figures (metric, metricSum)', () => {
  it('reads counts sent as numbers or as decimal text (64-bit counters come as text)', () => {
    expect(metric(0)).toBe(0)
    expect(metric(42)).toBe(42)
    expect(metric('12345')).toBe(12345)
    expect(metric(' 7 ')).toBe(7)
    expect(metric('9007199254740993')).toBe(9007199254740992)
  })

  it('is null, never 0, for a figure that is missing or not a count', () => {
    for (const value of [undefined, null, '', ' ', 'n/a', '-3', '1e3', '0x10', -1, Number.NaN, Infinity, true, {}, []])
      expect(metric(value)).toBeNull()
  })

  it('sums the figures given, and is null when none was', () => {
    expect(metricSum(3, '1')).toBe(4)
    expect(metricSum(3, undefined)).toBe(3)
    expect(metricSum(undefined, null)).toBeNull()
  })
})
