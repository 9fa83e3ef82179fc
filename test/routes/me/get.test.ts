import { describe, expect, it } from 'vitest'
import { posts } from '../../../src/db/schema'
import { newId } from '../../../src/lib/ids'
import { addSandboxAccount } from '../../../src/services/accounts/accounts'
import { createTestApp } from '../../support/test-app'

describe('GET /v1/me', () => {
  it('has the documented shape with the plan limits of docs/decisions.md', async () => {
    const t = await createTestApp({ plan: 'free' })
    const res = await t.call('GET', '/v1/me')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      workspaceId: t.workspaceId,
      name: 'Test workspace',
      timezone: 'UTC',
      approvalRequired: false,
      plan: { id: 'free', name: 'Free', limits: { socialAccounts: 3, seats: 1, monthlyPosts: 30 } },
      usage: { socialAccounts: 0, postsThisMonth: 0, seats: 0 },
      stats: { accounts: 0, scheduled: 0 },
    })
  })

  it('shows -1 for unlimited on the agency plan', async () => {
    const t = await createTestApp({ plan: 'agency' })
    const body = await (await t.call('GET', '/v1/me')).json()
    expect(body.plan.limits).toEqual({ socialAccounts: -1, seats: 10, monthlyPosts: -1 })
  })

  it('counts usage and stats from the database, for this workspace only', async () => {
    const t = await createTestApp({ timezone: 'Europe/Berlin' })
    const other = await createTestApp()
    const account = await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'MICROBLOG_NET',
      username: 'a',
    })
    await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'PHOTO_NET',
      username: 'b',
    })
    await addSandboxAccount(other.deps.db, other.deps.cipher, {
      workspaceId: other.workspaceId,
      platform: 'PHOTO_NET',
      username: 'c',
    })
    const now = new Date()
    // Two this month (one scheduled), one created long before this month.
    await t.deps.db.insert(posts).values([
      {
        id: newId('post'),
        workspaceId: t.workspaceId,
        status: 'SCHEDULED',
        type: 'IMAGE',
        scheduledAt: new Date(now.getTime() + 3_600_000),
      },
      { id: newId('post'), workspaceId: t.workspaceId, status: 'DRAFT', type: 'IMAGE' },
      {
        id: newId('post'),
        workspaceId: t.workspaceId,
        status: 'PUBLISHED',
        type: 'IMAGE',
        createdAt: new Date(now.getTime() - 62 * 86_400_000),
      },
    ])
    const body = await (await t.call('GET', '/v1/me')).json()
    expect(body.usage).toEqual({ socialAccounts: 2, postsThisMonth: 2, seats: 0 })
    expect(body.stats).toEqual({ accounts: 2, scheduled: 1 })
    expect(account.status).toBe('ACTIVE')
  })

  it('starts the month at midnight in the workspace time zone', async () => {
    // 2026-03-01 00:30 in Tokyo is 2026-02-28 15:30 UTC: a post then belongs to March in Tokyo.
    const now = new Date('2026-03-10T12:00:00Z')
    const clock = { now: () => now }
    const tokyo = await createTestApp({ timezone: 'Asia/Tokyo', clock })
    const utc = await createTestApp({ timezone: 'UTC', clock })
    const createdAt = new Date('2026-02-28T15:30:00Z')
    for (const t of [tokyo, utc]) {
      await t.deps.db
        .insert(posts)
        .values({ id: newId('post'), workspaceId: t.workspaceId, status: 'DRAFT', type: 'IMAGE', createdAt })
    }
    expect((await (await tokyo.call('GET', '/v1/me')).json()).usage.postsThisMonth).toBe(1)
    expect((await (await utc.call('GET', '/v1/me')).json()).usage.postsThisMonth).toBe(0)
  })
})
