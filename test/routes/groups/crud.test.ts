import { describe, expect, it } from 'vitest'
import { account } from '../../support/fixtures'
import { group, label } from '../../support/groups'
import { createTestApp } from '../../support/test-app'

describe('/v1/groups', () => {
  it('creates, lists, reads, renames and empties a group; the accounts show their groups', async () => {
    const t = await createTestApp()
    const a = await account(t, 'PHOTO_NET')
    const b = await account(t, 'MICROBLOG_NET')
    const created = await group(t, 'Acme', [a.id, b.id, a.id])
    expect(created).toMatchObject({ name: 'Acme', color: null, approvalRequired: false })
    expect(created.id).toMatch(/^grp_/)
    expect([...created.accountIds].sort()).toEqual([a.id, b.id].sort())
    const other = await group(t, 'beta')

    expect((await (await t.call('GET', '/v1/groups')).json()).map((g: any) => g.name)).toEqual(['Acme', 'beta'])
    expect(await (await t.call('GET', `/v1/groups/${created.id}`)).json()).toEqual(created)

    const accounts = await (await t.call('GET', '/v1/accounts')).json()
    expect(accounts.find((x: any) => x.id === a.id).groupIds).toEqual([created.id])
    expect((await (await t.call('GET', `/v1/accounts/${b.id}`)).json()).groupIds).toEqual([created.id])

    const patched = await t.call('PATCH', `/v1/groups/${created.id}`, {
      body: { name: 'Acme Coffee', color: '#0ea5e9', approvalRequired: true, accountIds: [b.id] },
    })
    expect(patched.status).toBe(200)
    expect(await patched.json()).toMatchObject({
      name: 'Acme Coffee',
      color: '#0ea5e9',
      approvalRequired: true,
      accountIds: [b.id],
    })
    const byGroup = await (await t.call('GET', `/v1/accounts?groupId=${created.id}`)).json()
    expect(byGroup.map((x: any) => x.id)).toEqual([b.id])
    expect(await (await t.call('GET', `/v1/accounts?groupId=${other.id}`)).json()).toEqual([])
    const unknown = await t.call('GET', '/v1/accounts?groupId=grp_none')
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error).toMatchObject({ code: 'not_found', message: 'Group not found.' })

    const emptied = await t.call('PATCH', `/v1/groups/${created.id}`, { body: { accountIds: [] } })
    expect((await emptied.json()).accountIds).toEqual([])
  })

  it('refuses a taken name (any case) with 409, and a foreign or unknown account with 422', async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const theirs = await account(other, 'PHOTO_NET')
    const first = await group(t, 'Acme')
    const second = await group(t, 'Other')

    const dup = await t.call('POST', '/v1/groups', { body: { name: 'ACME' } })
    expect(dup.status).toBe(409)
    expect((await dup.json()).error).toMatchObject({
      code: 'name_taken',
      message: 'A group named "ACME" already exists in this workspace; choose another name.',
    })
    const rename = await t.call('PATCH', `/v1/groups/${second.id}`, { body: { name: 'acme' } })
    expect(rename.status).toBe(409)
    expect((await t.call('PATCH', `/v1/groups/${first.id}`, { body: { name: 'ACME' } })).status).toBe(200)

    const foreign = await t.call('POST', '/v1/groups', { body: { name: 'X', accountIds: [theirs.id] } })
    expect(foreign.status).toBe(422)
    expect((await foreign.json()).error).toMatchObject({
      code: 'account_not_found',
      details: [{ path: 'accountIds.0' }],
    })
    // Nothing was written by the refused create.
    expect((await (await t.call('GET', '/v1/groups')).json()).map((g: any) => g.name)).toEqual(['ACME', 'Other'])
    const patchForeign = await t.call('PATCH', `/v1/groups/${first.id}`, { body: { accountIds: ['acc_nope'] } })
    expect(patchForeign.status).toBe(422)

    for (const body of [{}, { name: '' }, { name: 'A', color: 'blue' }, { name: 'x'.repeat(81) }]) {
      expect((await t.call('POST', '/v1/groups', { body })).status).toBe(400)
    }
    // Another workspace's group is 404 for read, change and delete.
    const foreignGroup = await group(other, 'Theirs')
    for (const [method, body] of [['GET'], ['PATCH', { name: 'mine' }], ['DELETE']] as const) {
      const res = await t.call(method, `/v1/groups/${foreignGroup.id}`, body ? { body } : {})
      expect(res.status).toBe(404)
    }
  })

  it('deletes a group without touching its accounts', async () => {
    const t = await createTestApp()
    const a = await account(t, 'PHOTO_NET')
    const g = await group(t, 'Gone', [a.id])
    const res = await t.call('DELETE', `/v1/groups/${g.id}`)
    expect(await res.json()).toEqual({ id: g.id, deleted: true })
    expect((await t.call('GET', `/v1/groups/${g.id}`)).status).toBe(404)
    const acc = await (await t.call('GET', `/v1/accounts/${a.id}`)).json()
    expect(acc).toMatchObject({ id: a.id, status: 'ACTIVE', groupIds: [] })
    expect((await t.call('DELETE', `/v1/groups/${g.id}`)).status).toBe(404)
  })
})

describe('/v1/labels', () => {
  it('creates, lists, renames and deletes labels; a taken name is 409', async () => {
    const t = await createTestApp()
    const spring = await label(t, 'Spring sale', '#22c55e')
    const plain = await label(t, 'evergreen')
    expect(plain.color).toBe('#64748b')
    expect(spring.id).toMatch(/^lbl_/)
    expect((await (await t.call('GET', '/v1/labels')).json()).map((l: any) => l.name)).toEqual([
      'evergreen',
      'Spring sale',
    ])
    const dup = await t.call('POST', '/v1/labels', { body: { name: 'SPRING SALE' } })
    expect(dup.status).toBe(409)
    expect((await dup.json()).error.code).toBe('name_taken')
    const renamed = await t.call('PATCH', `/v1/labels/${spring.id}`, { body: { name: 'Summer', color: '#ef4444' } })
    expect(await renamed.json()).toMatchObject({ id: spring.id, name: 'Summer', color: '#ef4444' })
    expect((await t.call('PATCH', `/v1/labels/${plain.id}`, { body: { name: 'summer' } })).status).toBe(409)
    expect(await (await t.call('DELETE', `/v1/labels/${plain.id}`)).json()).toEqual({ id: plain.id, deleted: true })
    expect((await t.call('DELETE', `/v1/labels/${plain.id}`)).status).toBe(404)
    const other = await createTestApp()
    expect((await other.call('PATCH', `/v1/labels/${spring.id}`, { body: { name: 'x' } })).status).toBe(404)
  })
})

describe('activity of groups and labels', () => {
  /** The workspace's entries about `subjectType`, oldest first: action, summary, details. */
  async function entries(t: Awaited<ReturnType<typeof createTestApp>>, subjectType: string) {
    const res = await t.call('GET', `/v1/activity?subjectType=${subjectType}`)
    expect(res.status).toBe(200)
    return ((await res.json()).data as any[]).reverse()
  }

  it('records each change of a group with the accounts added and removed, and each change of a label', async () => {
    const t = await createTestApp({ plan: 'agency' })
    const a = await account(t, 'PHOTO_NET')
    const b = await account(t, 'MICROBLOG_NET')
    const c = await account(t, 'CHAT_NET')
    const g = await group(t, 'Acme', [a.id, b.id])
    await t.call('PATCH', `/v1/groups/${g.id}`, { body: { name: 'Acme Coffee', accountIds: [b.id, c.id] } })
    await t.call('PATCH', `/v1/groups/${g.id}`, { body: { approvalRequired: true } })
    // A refused change leaves no entry: it rolled back with its transaction.
    expect((await t.call('PATCH', `/v1/groups/${g.id}`, { body: { accountIds: ['acc_nope'] } })).status).toBe(422)
    await t.call('DELETE', `/v1/groups/${g.id}`)

    const groups = await entries(t, 'group')
    const sorted = (ids: string[]) => [...ids].sort()
    expect(
      groups.map((e) => [e.action, e.subject.id, sorted(e.details.accountsAdded), sorted(e.details.accountsRemoved)]),
    ).toEqual([
      ['group.created', g.id, sorted([a.id, b.id]), []],
      ['group.updated', g.id, [c.id], [a.id]],
      ['group.updated', g.id, [], []],
      ['group.deleted', g.id, [], sorted([b.id, c.id])],
    ])
    expect(groups.map((e) => e.summary.replace(/^.*? (created|updated|deleted) /, '$1 '))).toEqual([
      `created the account group "Acme" (${g.id}) with 2 accounts`,
      `updated the account group "Acme Coffee" (${g.id}): changed its name; added 1 account; removed 1 account`,
      `updated the account group "Acme Coffee" (${g.id}): changed its approvalRequired`,
      `deleted the account group "Acme Coffee" (${g.id}), which had 2 accounts`,
    ])
    expect(groups.every((e) => e.actor.kind === 'token')).toBe(true)

    const l = await label(t, 'Spring')
    await t.call('PATCH', `/v1/labels/${l.id}`, { body: { color: '#ef4444' } })
    await t.call('DELETE', `/v1/labels/${l.id}`)
    expect((await t.call('POST', '/v1/labels', { body: { name: 'SPRING' } })).status).toBe(200)
    const labels = await entries(t, 'label')
    expect(labels.map((e) => [e.action, e.details.name])).toEqual([
      ['label.created', 'Spring'],
      ['label.updated', 'Spring'],
      ['label.deleted', 'Spring'],
      ['label.created', 'SPRING'],
    ])
    expect(labels[1].summary).toMatch(/ updated the label "Spring" \(lbl_\w+\): changed its color$/)
    // Another workspace sees none of it.
    const other = await createTestApp({ plan: 'agency' })
    expect(await entries(other, 'group')).toEqual([])
  })
})
