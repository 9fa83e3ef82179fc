import { describe, expect, it } from 'vitest'
import { calendarListPage } from '../../../src/services/posts/calendar'
import { account } from '../../support/fixtures'
import { group, label } from '../../support/groups'
import { createTestApp, type TestApp } from '../../support/test-app'

async function draft(t: TestApp, accountIds: string[], extra: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', mediaIds: [], action: 'draft', caption: 'hello', accountIds, ...extra },
  })
  return { status: res.status, body: await res.json() }
}

const ids = (list: Array<{ id: string }>) => list.map((p) => p.id).sort()

describe('labels on posts', () => {
  it('sets labels on create, replaces them on edit, and shows them in the record', async () => {
    const t = await createTestApp()
    const a = await account(t, 'MICROBLOG_NET')
    const spring = await label(t, 'Spring', '#22c55e')
    const launch = await label(t, 'launch')
    const created = await draft(t, [a.id], { labelIds: [spring.id, launch.id, spring.id] })
    expect(created.status).toBe(200)
    expect(created.body.labels).toEqual([
      { id: launch.id, name: 'launch', color: '#64748b' },
      { id: spring.id, name: 'Spring', color: '#22c55e' },
    ])
    const read = await (await t.call('GET', `/v1/posts/${created.body.id}`)).json()
    expect(read.labels).toEqual(created.body.labels)

    const edited = await t.call('PATCH', `/v1/posts/${created.body.id}`, { body: { labelIds: [spring.id] } })
    expect((await edited.json()).labels.map((l: any) => l.id)).toEqual([spring.id])
    const kept = await t.call('PATCH', `/v1/posts/${created.body.id}`, { body: { caption: 'changed' } })
    expect((await kept.json()).labels.map((l: any) => l.id)).toEqual([spring.id])
    const cleared = await t.call('PATCH', `/v1/posts/${created.body.id}`, { body: { labelIds: [] } })
    expect((await cleared.json()).labels).toEqual([])

    // Deleting a label takes it off its posts; the post stays.
    await t.call('PATCH', `/v1/posts/${created.body.id}`, { body: { labelIds: [launch.id] } })
    await t.call('DELETE', `/v1/labels/${launch.id}`)
    const after = await t.call('GET', `/v1/posts/${created.body.id}`)
    expect(after.status).toBe(200)
    expect((await after.json()).labels).toEqual([])
  })

  it('refuses an unknown or foreign label with 422 label_not_found and writes nothing', async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const a = await account(t, 'MICROBLOG_NET')
    const theirs = await label(other, 'Theirs')
    const mine = await label(t, 'Mine')
    const refused = await draft(t, [a.id], { labelIds: [mine.id, theirs.id] })
    expect(refused.status).toBe(422)
    expect(refused.body.error).toMatchObject({
      code: 'label_not_found',
      message: `Label ${theirs.id} is not in this workspace.`,
      details: [{ path: 'labelIds.1' }],
    })
    expect(await (await t.call('GET', '/v1/posts')).json()).toEqual([])
    const post = await draft(t, [a.id], { labelIds: [mine.id] })
    const edit = await t.call('PATCH', `/v1/posts/${post.body.id}`, { body: { labelIds: ['lbl_nope'], caption: 'x' } })
    expect(edit.status).toBe(422)
    const unchanged = await (await t.call('GET', `/v1/posts/${post.body.id}`)).json()
    expect(unchanged).toMatchObject({ caption: 'hello', labels: [{ id: mine.id }] })
  })

  it('filters posts, the calendar and the inbox lists by group and label; unknown ids are 404', async () => {
    const t = await createTestApp()
    const a = await account(t, 'MICROBLOG_NET', 'a')
    const b = await account(t, 'MICROBLOG_NET', 'b')
    const ga = await group(t, 'A', [a.id])
    const gb = await group(t, 'B', [b.id])
    const campaign = await label(t, 'Campaign')
    const onA = (await draft(t, [a.id], { labelIds: [campaign.id] })).body
    const onB = (await draft(t, [b.id])).body
    const both = (await draft(t, [a.id, b.id], { labelIds: [campaign.id] })).body

    const list = async (q: string) => (await t.call('GET', `/v1/posts?${q}`)).json()
    expect(ids(await list(`groupId=${ga.id}`))).toEqual(ids([onA, both]))
    expect(ids(await list(`groupId=${gb.id}`))).toEqual(ids([onB, both]))
    expect(ids(await list(`labelId=${campaign.id}`))).toEqual(ids([onA, both]))
    expect(ids(await list(`labelId=${campaign.id}&groupId=${gb.id}`))).toEqual(ids([both]))
    const page = await list(`groupId=${gb.id}&page=1&limit=1`)
    expect(page).toMatchObject({ total: 2, hasMore: true })
    for (const q of ['groupId=grp_none', 'labelId=lbl_none']) {
      const res = await t.call('GET', `/v1/posts?${q}`)
      expect(res.status).toBe(404)
      expect((await res.json()).error.message).toMatch(/^(Group|Label) not found\.$/)
    }

    const calendar = (filter: Record<string, string>) =>
      calendarListPage(t.deps.db, {
        workspaceId: t.workspaceId,
        timeZone: 'UTC',
        now: new Date(),
        filter,
        page: 1,
        pageSize: 10,
      })
    // Drafts have no time: the calendar list shows posts with one, so give them one.
    await t.call('PATCH', `/v1/posts/${onA.id}`, { body: { scheduledAt: '2030-01-01T10:00:00Z' } })
    await t.call('PATCH', `/v1/posts/${onB.id}`, { body: { scheduledAt: '2030-01-01T11:00:00Z' } })
    await t.call('PATCH', `/v1/posts/${both.id}`, { body: { scheduledAt: '2030-01-01T12:00:00Z' } })
    expect(ids((await calendar({})).posts)).toEqual(ids([onA, onB, both]))
    expect(ids((await calendar({ groupId: gb.id })).posts)).toEqual(ids([onB, both]))
    expect(ids((await calendar({ labelId: campaign.id })).posts)).toEqual(ids([onA, both]))
    expect(ids((await calendar({ visibleGroupIds: [ga.id] })).posts)).toEqual(ids([onA, both]))

    expect((await t.call('GET', `/v1/inbox/comments?groupId=${ga.id}`)).status).toBe(200)
    expect((await t.call('GET', `/v1/inbox/mentions?labelId=${campaign.id}`)).status).toBe(200)
    expect((await t.call('GET', '/v1/inbox/comments?groupId=grp_none')).status).toBe(404)
  })
})
