import { describe, expect, it } from 'vitest'
import { dropTime } from '../../../src/dashboard/client/calendar/drop-time'

describe('calendar drop time', () => {
  const post = { day: '2027-03-02', time: '10:30' }

  it('a week slot gives its day and hour and keeps the minutes', () => {
    expect(dropTime({ day: '2027-03-04', hour: '15' }, post)).toBe('2027-03-04T15:30')
    expect(dropTime({ day: '2027-03-02', hour: '08' }, post)).toBe('2027-03-02T08:30')
  })

  it('a month day keeps the time of day', () => {
    expect(dropTime({ day: '2027-03-06' }, post)).toBe('2027-03-06T10:30')
  })

  it('a drop that changes nothing or lands on no day moves nothing', () => {
    expect(dropTime({ day: '2027-03-02', hour: '10' }, post)).toBeNull()
    expect(dropTime({ day: '2027-03-02' }, post)).toBeNull()
    expect(dropTime({}, post)).toBeNull()
    expect(dropTime({ day: 'tomorrow' }, post)).toBeNull()
    expect(dropTime({ day: '2027-03-04', hour: '3pm' }, post)).toBeNull()
  })
})
