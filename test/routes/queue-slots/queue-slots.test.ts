import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../support/test-app'

describe('queue slots', () => {
  it('starts empty in the workspace time zone', async () => {
    const t = await createTestApp({ timezone: 'Europe/Berlin' })
    expect(await (await t.call('GET', '/v1/queue-slots')).json()).toEqual({ timezone: 'Europe/Berlin', slots: [] })
  })

  it('replaces the schedule, sorted by weekday and time, and changes the zone when asked', async () => {
    const t = await createTestApp()
    const put = await t.call('PUT', '/v1/queue-slots', {
      body: {
        timezone: 'America/New_York',
        slots: [
          { weekday: 3, time: '17:00' },
          { weekday: 1, time: '09:30' },
          { weekday: 1, time: '08:05' },
        ],
      },
    })
    expect(put.status).toBe(200)
    const expected = {
      timezone: 'America/New_York',
      slots: [
        { id: expect.stringMatching(/^slot_/), weekday: 1, time: '08:05' },
        { id: expect.stringMatching(/^slot_/), weekday: 1, time: '09:30' },
        { id: expect.stringMatching(/^slot_/), weekday: 3, time: '17:00' },
      ],
    }
    expect(await put.json()).toEqual(expected)
    expect(await (await t.call('GET', '/v1/queue-slots')).json()).toEqual(expected)
    expect((await (await t.call('GET', '/v1/me')).json()).timezone).toBe('America/New_York')

    const cleared = await t.call('PUT', '/v1/queue-slots', { body: { slots: [] } })
    expect(await cleared.json()).toEqual({ timezone: 'America/New_York', slots: [] })
  })

  it('refuses an unknown zone and duplicate slots without changing anything', async () => {
    const t = await createTestApp()
    await t.call('PUT', '/v1/queue-slots', { body: { slots: [{ weekday: 2, time: '12:00' }] } })
    const res = await t.call('PUT', '/v1/queue-slots', {
      body: {
        timezone: 'Mars/Olympus',
        slots: [
          { weekday: 0, time: '10:00' },
          { weekday: 0, time: '10:00' },
        ],
      },
    })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error.details.map((d: { path: string }) => d.path)).toEqual(['timezone', 'slots.1'])
    const after = await (await t.call('GET', '/v1/queue-slots')).json()
    expect(after.timezone).toBe('UTC')
    expect(after.slots).toEqual([{ id: expect.any(String), weekday: 2, time: '12:00' }])
  })

  it('keeps each workspace schedule to itself', async () => {
    const a = await createTestApp()
    const b = await createTestApp()
    await a.call('PUT', '/v1/queue-slots', { body: { slots: [{ weekday: 5, time: '18:00' }] } })
    expect((await (await b.call('GET', '/v1/queue-slots')).json()).slots).toEqual([])
  })
})
