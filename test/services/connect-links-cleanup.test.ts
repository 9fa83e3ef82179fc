import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { connectLinks } from '../../src/db/schema'
import { runScheduledJobs, SCHEDULED_JOBS } from '../../src/services/scheduled-jobs'
import { fixedClock } from '../support/fixtures'
import { createTestApp } from '../support/test-app'

describe('connect_links_cleanup job', () => {
  it('deletes links a day after they expired, and keeps the ones still usable', async () => {
    const clock = fixedClock('2026-11-21T10:00:00Z')
    const t = await createTestApp({ clock })
    const body = { platform: 'PHOTO_NET', connection: 'SANDBOX' }
    expect((await t.call('POST', '/v1/accounts/connect', { body })).status).toBe(200)
    const job = SCHEDULED_JOBS.filter((j) => j.name === 'connect_links_cleanup')
    const links = () => t.deps.db.select().from(connectLinks).where(eq(connectLinks.workspaceId, t.workspaceId))

    clock.set('2026-11-22T10:29:00Z') // expired at 10:30 the day before: not yet a day ago
    await t.call('POST', '/v1/accounts/connect', { body })
    await runScheduledJobs(t.deps, job)
    expect(await links()).toHaveLength(2)

    clock.set('2026-11-22T10:31:00Z')
    await runScheduledJobs(t.deps, job)
    const left = await links()
    expect(left).toHaveLength(1)
    expect(left[0]!.expiresAt.toISOString()).toBe('2026-11-22T10:59:00.000Z')
  })
})
