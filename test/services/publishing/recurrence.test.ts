import { describe, expect, it } from 'vitest'
import { nextOccurrence, occurrenceAt } from '../../../src/services/publishing/recurrence'
import { fakeNetwork, runDue } from '../../support/engine'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

async function setup(timezone: string, now: string) {
  const clock = fixedClock(now)
  const network = fakeNetwork()
  const t = await createTestApp({ clock, timezone, networkRegistry: network.registry })
  const queue = t.publishQueue
  return { t, clock, queue }
}

describe('recurrence', () => {
  it('creates the next occurrence at the same local time across a daylight-saving change', async () => {
    // Weekly at 09:00 in Berlin: Saturday 2027-03-27 is CET (08:00Z), the next Saturday is CEST (07:00Z).
    const { t, clock, queue } = await setup('Europe/Berlin', '2027-03-27T07:00:00Z')
    const a = await account(t, 'CHAT_NET')
    const first = await (
      await t.call('POST', '/v1/posts', {
        body: {
          type: 'IMAGE',
          accountIds: [a.id],
          mediaIds: [],
          caption: 'Weekly tip',
          action: 'schedule',
          scheduledAt: '2027-03-27T08:00:00Z',
          recurrence: { frequency: 'weekly', interval: 1, count: 3 },
        },
      })
    ).json()
    clock.set('2027-03-27T08:00:00Z')
    expect(await runDue(t, queue)).toEqual(['published'])
    const list = await (await t.call('GET', '/v1/posts?sort=-createdAt')).json()
    expect(list).toHaveLength(2)
    const second = list[1]
    expect(second).toMatchObject({
      status: 'SCHEDULED',
      caption: 'Weekly tip',
      scheduledAt: '2027-04-03T07:00:00.000Z',
      accountIds: [a.id],
      recurrence: { frequency: 'weekly', interval: 1, count: 3, occurrence: 2, parentId: first.id },
    })
    // The third occurrence is the last (count 3).
    clock.set('2027-04-03T07:00:00Z')
    await runDue(t, queue)
    clock.set('2027-04-10T07:00:00Z')
    await runDue(t, queue)
    const all = await (await t.call('GET', '/v1/posts?sort=-createdAt')).json()
    expect(all.map((p: { scheduledAt: string; status: string }) => `${p.scheduledAt} ${p.status}`)).toEqual([
      '2027-03-27T08:00:00.000Z PUBLISHED',
      '2027-04-03T07:00:00.000Z PUBLISHED',
      '2027-04-10T07:00:00.000Z PUBLISHED',
    ])
  })

  it('stops at endsAt', async () => {
    const { t, clock, queue } = await setup('UTC', '2026-11-21T09:00:00Z')
    const a = await account(t, 'CHAT_NET')
    await t.call('POST', '/v1/posts', {
      body: {
        type: 'IMAGE',
        accountIds: [a.id],
        mediaIds: [],
        caption: 'Daily',
        action: 'schedule',
        scheduledAt: '2026-11-21T10:00:00Z',
        recurrence: { frequency: 'daily', interval: 1, endsAt: '2026-11-22T12:00:00Z' },
      },
    })
    for (const at of ['2026-11-21T10:00:00Z', '2026-11-22T10:00:00Z', '2026-11-23T10:00:00Z']) {
      clock.set(at)
      await runDue(t, queue)
    }
    expect(await (await t.call('GET', '/v1/posts')).json()).toHaveLength(2)
  })

  it('steps months by the calendar from the first occurrence, keeping the local time', () => {
    const anchor = new Date('2027-01-31T09:00:00Z')
    expect(
      [1, 2, 3].map((k) => occurrenceAt(anchor, { frequency: 'monthly', interval: 1 }, 'UTC', k).toISOString()),
    ).toEqual(['2027-02-28T09:00:00.000Z', '2027-03-31T09:00:00.000Z', '2027-04-30T09:00:00.000Z'])
    expect(
      nextOccurrence(new Date('2027-01-31T09:00:00Z'), { frequency: 'monthly', interval: 1 }, 'UTC').toISOString(),
    ).toBe('2027-02-28T09:00:00.000Z')
    expect(
      nextOccurrence(
        new Date('2026-10-20T07:30:00Z'),
        { frequency: 'monthly', interval: 1 },
        'Europe/Berlin',
      ).toISOString(),
    ).toBe('2026-11-20T08:30:00.000Z')
    expect(
      nextOccurrence(
        new Date('2026-11-21T10:00:00Z'),
        { frequency: 'daily', interval: 2 },
        'America/New_York',
      ).toISOString(),
    ).toBe('2026-11-23T10:00:00.000Z')
  })
})
