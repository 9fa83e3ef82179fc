import { inArray } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { postLabels, targets } from '../../../src/db/schema'
import { writeHistory } from '../../support/analytics-history'
import { account, fixedClock } from '../../support/fixtures'
import { group, label, limitedToken } from '../../support/groups'
import { createTestApp } from '../../support/test-app'

const T0 = '2026-03-10T10:00:00.000Z'
const daysAgo = (n: number) => new Date(Date.parse(T0) - n * 86_400_000)
const figures = (likes: number) => [{ at: T0, figures: { likes, comments: 1, views: likes * 10 } }]

/** Two clients (a group each), posts of a spring campaign on both and an unlabelled one on B. */
async function history() {
  const t = await createTestApp({ clock: fixedClock(T0) })
  const a = await account(t, 'PHOTO_NET', 'client_a')
  const b = await account(t, 'MICROBLOG_NET', 'client_b')
  const ga = await group(t, 'Client A', [a.id])
  const gb = await group(t, 'Client B', [b.id])
  const spring = await label(t, 'Spring')
  const launch = await label(t, 'Launch')
  const targetIds = await writeHistory(t, [
    { account: a, publishedAt: daysAgo(1), snapshots: figures(10) },
    { account: b, publishedAt: daysAgo(2), snapshots: figures(4) },
    { account: b, publishedAt: daysAgo(3), snapshots: figures(100) },
  ])
  const rows = await t.deps.db.select().from(targets).where(inArray(targets.id, targetIds))
  const postOf = (id: string) => rows.find((r) => r.id === id)!.postId
  const [onA, onB, plain] = targetIds.map(postOf) as [string, string, string]
  await t.deps.db.insert(postLabels).values([
    { postId: onA, labelId: spring.id, workspaceId: t.workspaceId },
    { postId: onB, labelId: spring.id, workspaceId: t.workspaceId },
    { postId: onB, labelId: launch.id, workspaceId: t.workspaceId },
  ])
  return { t, a, b, ga, gb, spring, launch, onA, onB, plain }
}

describe('analytics by account group and label', () => {
  it('gives the totals per label, and narrows to a group or a label', async () => {
    const { t, a, b, ga, spring, launch, onA, onB } = await history()
    const all = await (await t.call('GET', '/v1/analytics')).json()
    expect(all.totals.posts).toBe(3)
    expect(all.byLabel).toEqual([
      expect.objectContaining({ labelId: launch.id, name: 'Launch', posts: 1, engagement: 5 }),
      expect.objectContaining({ labelId: spring.id, name: 'Spring', color: '#64748b', posts: 2, engagement: 16 }),
    ])
    expect(all.byLabel[1].metrics).toMatchObject({ likes: 14, comments: 2, views: 140 })

    const byGroup = await (await t.call('GET', `/v1/analytics?groupId=${ga.id}`)).json()
    expect(byGroup.period).toMatchObject({ groupId: ga.id, labelId: null })
    expect(byGroup.accounts.map((x: any) => x.accountId)).toEqual([a.id])
    expect(byGroup.recentPosts.map((p: any) => p.postId)).toEqual([onA])
    expect(byGroup.byLabel.map((l: any) => [l.name, l.posts])).toEqual([['Spring', 1]])

    const byLabel = await (await t.call('GET', `/v1/analytics?labelId=${launch.id}`)).json()
    expect(byLabel.totals.posts).toBe(1)
    expect(byLabel.recentPosts.map((p: any) => p.postId)).toEqual([onB])
    expect(byLabel.accounts.map((x: any) => x.accountId).sort()).toEqual([a.id, b.id].sort())

    for (const q of ['groupId=grp_none', 'labelId=lbl_none']) {
      expect((await t.call('GET', `/v1/analytics?${q}`)).status).toBe(404)
    }
  })

  it('puts the labels in the CSV and narrows it the same way', async () => {
    const { t, spring } = await history()
    const res = await t.call('GET', `/v1/analytics?labelId=${spring.id}`, { headers: { Accept: 'text/csv' } })
    expect(res.headers.get('content-disposition')).toContain(`analytics-${spring.id}-`)
    const lines = (await res.text()).trim().split('\r\n')
    expect(lines[0]!.endsWith(',labels')).toBe(true)
    expect(lines.slice(1).map((l) => l.split(',').at(-1))).toEqual(['Spring', 'Launch|Spring'])
  })

  it('gives a member limited to a group the analytics of its accounts only', async () => {
    const { t, a, ga, gb, onA } = await history()
    const token = await limitedToken(t, [ga.id])
    const body = await (await t.call('GET', '/v1/analytics', { token })).json()
    expect(body.accounts.map((x: any) => x.accountId)).toEqual([a.id])
    expect(body.totals.posts).toBe(1)
    expect(body.recentPosts.map((p: any) => p.postId)).toEqual([onA])
    expect((await t.call('GET', `/v1/analytics?groupId=${gb.id}`, { token })).status).toBe(404)
  })
})
