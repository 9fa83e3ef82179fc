import { describe, expect, it } from 'vitest'
import { BULK_MAX_ROWS } from '../../../src/services/posts/bulk'
import { account } from '../../support/fixtures'
import { waitForRoomInCurrentMinute } from '../../support/minute'
import { createTestApp } from '../../support/test-app'

const FUTURE = new Date(Date.now() + 86_400_000).toISOString()

describe('POST /v1/posts/bulk', () => {
  it('creates a post per row through the same checks and reports each line, bad rows not stopping the others', async () => {
    const t = await createTestApp()
    const x = await account(t, 'MICROBLOG_NET')
    const chat = await account(t, 'CHAT_NET')
    const csv = [
      'caption,accountIds,scheduledAt,threadParts,captionOverrides',
      `"Hello, ""world""",${x.id}|${chat.id},${FUTURE},two|three,"{""MICROBLOG_NET"":""short""}"`,
      `"A caption
over two lines",${chat.id},,,`,
      `${'a'.repeat(281)},${x.id},,,`,
      `ok again,acc_nope,,,`,
      `past,${x.id},2020-01-01T00:00:00Z,,`,
      `broken overrides,${x.id},,,{not json`,
      `one field too many,${chat.id},,,,extra`,
    ].join('\n')
    const res = await t.call('POST', '/v1/posts/bulk', { body: { csv } })
    expect(res.status).toBe(200)
    const report = await res.json()
    expect(report).toMatchObject({ total: 7, succeeded: 2, failed: 5 })
    expect(
      report.rows.map((r: { line: number; ok: boolean; error: { code: string } | null }) => [
        r.line,
        r.ok,
        r.error?.code ?? null,
      ]),
    ).toEqual([
      [2, true, null],
      [3, true, null],
      [5, false, 'caption_too_long'],
      [6, false, 'account_not_found'],
      [7, false, 'schedule_time_in_past'],
      [8, false, 'invalid_request'],
      [9, false, 'invalid_request'],
    ])
    const first = await (await t.call('GET', `/v1/posts/${report.rows[0].postId}`)).json()
    expect(first).toMatchObject({
      caption: 'Hello, "world"',
      status: 'SCHEDULED',
      accountIds: [x.id, chat.id],
      threadParts: ['two', 'three'],
      captionOverrides: { MICROBLOG_NET: 'short' },
    })
    const second = await (await t.call('GET', `/v1/posts/${report.rows[1].postId}`)).json()
    expect(second).toMatchObject({ caption: 'A caption\nover two lines', status: 'DRAFT', type: 'IMAGE' })
  })

  it('takes title, destinations and targetOptions columns as JSON by account id, checked as in POST /v1/posts', async () => {
    const t = await createTestApp()
    const pin = await account(t, 'PINBOARD_NET')
    const [board] = (await (await t.call('GET', `/v1/accounts/${pin.id}/destinations`)).json()).destinations
    const cell = (value: unknown) => `"${JSON.stringify(value).replaceAll('"', '""')}"`
    const csv = [
      'caption,accountIds,title,destinations,targetOptions',
      `pinned,${pin.id},A title,${cell({ [pin.id]: board.id })},`,
      `elsewhere,${pin.id},,${cell({ [pin.id]: 'not-a-board' })},`,
      `options,${pin.id},,,${cell({ [pin.id]: { flair: 'x' } })}`,
      `broken,${pin.id},,{not json,`,
    ].join('\n')
    const report = await (await t.call('POST', '/v1/posts/bulk', { body: { csv } })).json()
    expect(
      report.rows.map((r: { ok: boolean; error: { code: string; details?: Array<{ path: string }> } | null }) => [
        r.ok,
        r.error?.code ?? null,
        r.error?.details?.[0]?.path ?? null,
      ]),
    ).toEqual([
      [true, null, null],
      [false, 'invalid_option', `destinations.${pin.id}`],
      [false, 'invalid_option', `targetOptions.${pin.id}`],
      [false, 'invalid_request', 'destinations'],
    ])
    const post = await (await t.call('GET', `/v1/posts/${report.rows[0].postId}`)).json()
    expect(post).toMatchObject({ title: 'A title', destinations: { [pin.id]: board.id }, targetOptions: null })
  })

  it('rejects an unknown column, a missing header and a CSV that cannot be parsed with 400', async () => {
    const t = await createTestApp()
    for (const csv of [
      'accountIds,caption,colour\nacc_1,hi,red',
      'caption\nhello',
      'accountIds,caption\nacc_1,"unterminated',
    ]) {
      const res = await t.call('POST', '/v1/posts/bulk', { body: { csv } })
      expect(res.status, csv).toBe(400)
      expect((await res.json()).error.code).toBe('invalid_request')
    }
  })

  it('answers 413 beyond the documented row cap, creating nothing', async () => {
    const t = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    const csv = ['accountIds,caption', ...Array.from({ length: BULK_MAX_ROWS + 1 }, (_, i) => `${a.id},row ${i}`)].join(
      '\n',
    )
    const res = await t.call('POST', '/v1/posts/bulk', { body: { csv } })
    expect(res.status).toBe(413)
    expect((await res.json()).error.code).toBe('payload_too_large')
    expect(await (await t.call('GET', '/v1/posts')).json()).toEqual([])
  })

  it('has its own rate limit of 10 a minute', async () => {
    await waitForRoomInCurrentMinute(5_000, { onlyWithRedis: true })
    const t = await createTestApp()
    const statuses: number[] = []
    for (let i = 0; i < 11; i++)
      statuses.push((await t.call('POST', '/v1/posts/bulk', { body: { csv: 'accountIds\n' } })).status)
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true)
    expect(statuses[10]).toBe(429)
    expect((await t.call('GET', '/v1/me')).status).toBe(200)
  })
})
