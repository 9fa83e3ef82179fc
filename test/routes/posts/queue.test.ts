import { describe, expect, it } from 'vitest'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

async function queue(t: TestApp, accountId: string) {
  return t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [accountId], mediaIds: [], action: 'queue', caption: 'queued' },
  })
}

describe('action queue', () => {
  it('answers 422 queue_not_configured when the workspace has no slots', async () => {
    const t = await createTestApp()
    const a = await account(t, 'MESSAGING_NET')
    const res = await queue(t, a.id)
    expect(res.status).toBe(422)
    expect((await res.json()).error.code).toBe('queue_not_configured')
  })

  it('takes the earliest free occurrence in the workspace time zone, one post per occurrence', async () => {
    // Saturday 2026-11-21 10:00 UTC = 11:00 in Berlin.
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
    const times: string[] = []
    for (let i = 0; i < 4; i++) {
      const post = await (await queue(t, a.id)).json()
      expect(post).toMatchObject({ status: 'SCHEDULED', queued: true })
      times.push(post.scheduledAt)
    }
    expect(times).toEqual([
      '2026-11-21T17:30:00.000Z', // Sat 18:30 CET (09:00 has passed)
      '2026-11-23T07:00:00.000Z', // Mon 08:00 CET
      '2026-11-28T08:00:00.000Z', // next Sat 09:00
      '2026-11-28T17:30:00.000Z',
    ])
  })

  it('keeps local wall-clock times across a daylight-saving change', async () => {
    // Berlin springs forward on Sunday 2027-03-28; the slot is every Sunday 10:00 local.
    const t = await createTestApp({ timezone: 'Europe/Berlin', clock: fixedClock('2027-03-20T12:00:00Z') })
    const a = await account(t, 'MESSAGING_NET')
    await t.call('PUT', '/v1/queue-slots', {
      body: {
        slots: [
          { weekday: 0, time: '10:00' },
          { weekday: 0, time: '02:30' },
        ],
      },
    })
    const times: string[] = []
    for (let i = 0; i < 4; i++) times.push((await (await queue(t, a.id)).json()).scheduledAt)
    expect(times).toEqual([
      '2027-03-21T01:30:00.000Z', // 02:30 CET
      '2027-03-21T09:00:00.000Z', // 10:00 CET (UTC+1)
      '2027-03-28T01:30:00.000Z', // 02:30 does not exist that day: 03:30 CEST
      '2027-03-28T08:00:00.000Z', // 10:00 CEST (UTC+2)
    ])
  })

  it('never gives one occurrence to two posts, even under concurrent requests', async () => {
    const t = await createTestApp({ clock: fixedClock('2026-11-21T10:00:00Z') })
    const a = await account(t, 'MESSAGING_NET')
    await t.call('PUT', '/v1/queue-slots', {
      body: {
        slots: [
          { weekday: 1, time: '09:00' },
          { weekday: 3, time: '09:00' },
        ],
      },
    })
    const results = await Promise.all(Array.from({ length: 6 }, () => queue(t, a.id)))
    const bodies = await Promise.all(results.map((r) => r.json()))
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200])
    const times = bodies.map((b) => b.scheduledAt).sort()
    expect(new Set(times).size).toBe(6)
    expect(times[0]).toBe('2026-11-23T09:00:00.000Z')
  })

  it('frees the occurrence when a queued post is edited back to a draft or deleted', async () => {
    const t = await createTestApp({ clock: fixedClock('2026-11-21T10:00:00Z') })
    const a = await account(t, 'MESSAGING_NET')
    await t.call('PUT', '/v1/queue-slots', { body: { slots: [{ weekday: 1, time: '09:00' }] } })
    const first = await (await queue(t, a.id)).json()
    await t.call('PATCH', `/v1/posts/${first.id}`, { body: { caption: 'now a draft' } })
    const second = await (await queue(t, a.id)).json()
    expect(second.scheduledAt).toBe(first.scheduledAt)
    await t.call('DELETE', `/v1/posts/${second.id}`)
    expect((await (await queue(t, a.id)).json()).scheduledAt).toBe(first.scheduledAt)
  })
})
