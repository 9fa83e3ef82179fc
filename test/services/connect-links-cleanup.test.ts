import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { randomBase62 } from '../../src/lib/ids'
import { insertConnectChoice, insertConnectLink, insertOAuthState } from '../../src/db/queries/connect-links'
import { connectChoices, connectLinks } from '../../src/db/schema'
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

  it('deletes identity choices never made as soon as they expire, sealed tokens and all', async () => {
    const clock = fixedClock('2026-11-21T10:00:00Z')
    const t = await createTestApp({ clock })
    const at = (iso: string) => new Date(iso)
    // Ids of this run only: on a real server the database is shared with every other test file.
    const run = randomBase62(8)
    const linkId = `cl_choice${run}`
    await insertConnectLink(t.deps.db, {
      id: linkId,
      workspaceId: t.workspaceId,
      tokenHash: `hash-of-link-${run}`,
      platform: 'SOCIALGRAPH_NET',
      connection: 'DIRECT_LOGIN',
      expiresAt: at('2026-11-21T10:30:00Z'),
    })
    await insertOAuthState(t.deps.db, {
      id: `ost_choice${run}`,
      linkId,
      stateHash: `hash-of-state-${run}`,
      platform: 'SOCIALGRAPH_NET',
      expiresAt: at('2026-11-21T10:15:00Z'),
    })
    for (const [id, expiresAt] of [
      [`cch_old${run}`, '2026-11-21T10:05:00Z'],
      [`cch_new${run}`, '2026-11-21T10:15:00Z'],
    ] as const)
      await insertConnectChoice(t.deps.db, {
        id,
        linkId,
        oauthStateId: `ost_choice${run}`,
        tokenHash: `hash-${id}`,
        platform: 'SOCIALGRAPH_NET',
        identities: await t.deps.cipher.encrypt({ identities: [] }, id),
        expiresAt: at(expiresAt),
      })
    clock.set('2026-11-21T10:06:00Z')
    await runScheduledJobs(
      t.deps,
      SCHEDULED_JOBS.filter((j) => j.name === 'connect_links_cleanup'),
    )
    const left = await t.deps.db
      .select({ id: connectChoices.id })
      .from(connectChoices)
      .where(eq(connectChoices.linkId, linkId))
    expect(left.map((r) => r.id)).toEqual([`cch_new${run}`])
    expect(await t.deps.db.select().from(connectLinks).where(eq(connectLinks.id, linkId))).toHaveLength(1)
  })
})
