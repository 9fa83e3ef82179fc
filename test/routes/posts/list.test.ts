import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { posts } from '../../../src/db/schema'
import { account } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

let t: TestApp
const created: Record<string, string> = {}

beforeAll(async () => {
  t = await createTestApp({ plan: 'agency' })
  const x = await account(t, 'MICROBLOG_NET')
  const chat = await account(t, 'CHAT_NET')
  const make = async (name: string, body: Record<string, unknown>, createdAt: string) => {
    const post = await (
      await t.call('POST', '/v1/posts', { body: { type: 'IMAGE', mediaIds: [], action: 'draft', ...body } })
    ).json()
    await t.deps.db
      .update(posts)
      .set({ createdAt: new Date(createdAt) })
      .where(eq(posts.id, post.id))
    created[name] = post.id
  }
  await make('oldest', { accountIds: [x.id], caption: 'Launch day 50%_off' }, '2026-01-01T00:00:00Z')
  await make('middle', { accountIds: [chat.id], caption: 'Weekly digest', type: 'STORY' }, '2026-02-01T00:00:00Z')
  await make(
    'newest',
    {
      accountIds: [x.id, chat.id],
      caption: 'launch recap',
      action: 'schedule',
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
    '2026-03-01T00:00:00Z',
  )
  // Another workspace's post never shows.
  const other = await createTestApp()
  const o = await account(other, 'MICROBLOG_NET')
  await other.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [o.id], mediaIds: [], action: 'draft', caption: 'launch elsewhere' },
  })
})

const ids = async (query: string) => {
  const body = await (await t.call('GET', `/v1/posts${query}`)).json()
  if (!Array.isArray(body)) throw new Error(`${query}: ${JSON.stringify(body)}`)
  return (body as Array<{ id: string }>).map((p) => p.id)
}

describe('GET /v1/posts', () => {
  it('returns a plain array, newest first, without page', async () => {
    expect(await ids('')).toEqual([created.newest, created.middle, created.oldest])
    expect(await ids('?sort=-createdAt')).toEqual([created.oldest, created.middle, created.newest])
  })

  it('filters by status, platform, type and caption text', async () => {
    expect(await ids('?status=SCHEDULED')).toEqual([created.newest])
    expect(await ids('?platform=CHAT_NET')).toEqual([created.newest, created.middle])
    expect(await ids('?type=STORY')).toEqual([created.middle])
    expect(await ids('?q=LAUNCH')).toEqual([created.newest, created.oldest])
    expect(await ids('?q=50%25_')).toEqual([created.oldest])
    expect(await ids('?q=%25')).toEqual([created.oldest])
    expect(await ids('?platform=MICROBLOG_NET&status=DRAFT')).toEqual([created.oldest])
  })

  it('sorts by scheduled time with unscheduled posts last', async () => {
    expect((await ids('?sort=scheduledAt'))[0]).toBe(created.newest)
    expect((await ids('?sort=-scheduledAt'))[0]).toBe(created.newest)
  })

  it('bounds the plain array by limit when there is no page', async () => {
    const res = await t.call('GET', '/v1/posts?limit=2')
    expect(res.status).toBe(200)
    const list = await res.json()
    expect(Array.isArray(list)).toBe(true)
    expect(list.map((p: { id: string }) => p.id)).toEqual([created.newest, created.middle])
  })

  it('pages with an envelope', async () => {
    const first = await (await t.call('GET', '/v1/posts?page=1&limit=2')).json()
    expect(first).toMatchObject({ page: 1, limit: 2, total: 3, hasMore: true })
    expect(first.data.map((p: { id: string }) => p.id)).toEqual([created.newest, created.middle])
    expect(first.data[0].targets).toHaveLength(2)
    const second = await (await t.call('GET', '/v1/posts?page=2&limit=2')).json()
    expect(second).toMatchObject({ page: 2, limit: 2, total: 3, hasMore: false })
    expect(second.data.map((p: { id: string }) => p.id)).toEqual([created.oldest])
    expect(await (await t.call('GET', '/v1/posts?page=1')).json()).toMatchObject({ limit: 20, total: 3 })
  })

  it('refuses unknown filter values with 400', async () => {
    for (const q of ['?status=LIVE', '?platform=MYSPACE', '?sort=caption', '?limit=101&page=1', '?page=0']) {
      const res = await t.call('GET', `/v1/posts${q}`)
      expect(res.status, q).toBe(400)
      expect((await res.json()).error.details[0].path).toMatch(/^query\./)
    }
  })
})
