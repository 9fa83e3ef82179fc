import { describe, expect, it } from 'vitest'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

describe('queue slots', () => {
  it('starts empty in the workspace time zone', async () => {
    const t = await createTestApp({ timezone: 'Europe/Berlin' })
    expect(await (await t.call('GET', '/v1/queue-slots')).json()).toEqual({
      timezone: 'Europe/Berlin',
      slots: [],
      nextFreeSlot: null,
    })
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
      nextFreeSlot: expect.any(String),
    }
    expect(await put.json()).toEqual(expected)
    expect(await (await t.call('GET', '/v1/queue-slots')).json()).toEqual(expected)
    expect((await (await t.call('GET', '/v1/me')).json()).timezone).toBe('America/New_York')

    const cleared = await t.call('PUT', '/v1/queue-slots', { body: { slots: [] } })
    expect(await cleared.json()).toEqual({ timezone: 'America/New_York', slots: [], nextFreeSlot: null })
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

  it('answers nextFreeSlot: the time the next queued post actually gets, past the held ones', async () => {
    // Saturday 2026-11-21 10:00 UTC = 11:00 in Berlin: Saturday 09:00 has passed.
    const t = await createTestApp({ timezone: 'Europe/Berlin', clock: fixedClock('2026-11-21T10:00:00Z') })
    const a = await account(t, 'MESSAGING_NET')
    await t.call('PUT', '/v1/queue-slots', {
      body: {
        slots: [
          { weekday: 6, time: '09:00' },
          { weekday: 6, time: '18:30' },
          { weekday: 1, time: '08:00' },
        ],
      },
    })
    const next = async () => (await (await t.call('GET', '/v1/queue-slots')).json()).nextFreeSlot
    const seen: string[] = []
    for (let i = 0; i < 3; i++) {
      const expected = await next()
      const post = await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'queue', caption: `queued ${i}` },
      })
      expect(post.status).toBe(200)
      expect((await post.json()).scheduledAt).toBe(expected)
      seen.push(expected)
    }
    expect(seen).toEqual(['2026-11-21T17:30:00.000Z', '2026-11-23T07:00:00.000Z', '2026-11-28T08:00:00.000Z'])
    expect(await next()).toBe('2026-11-28T17:30:00.000Z')
  })

  it('declares nextFreeSlot in the OpenAPI document: a date-time or null', async () => {
    const t = await createTestApp()
    const doc = await (await t.call('GET', '/v1/openapi.json')).json()
    const schema = doc.components.schemas.QueueSchedule
    expect(schema.required).toContain('nextFreeSlot')
    expect(schema.properties.nextFreeSlot).toMatchObject({ type: ['string', 'null'], format: 'date-time' })
  })

  it('keeps each workspace schedule to itself', async () => {
    const a = await createTestApp()
    const b = await createTestApp()
    await a.call('PUT', '/v1/queue-slots', { body: { slots: [{ weekday: 5, time: '18:00' }] } })
    expect((await (await b.call('GET', '/v1/queue-slots')).json()).slots).toEqual([])
  })
})
