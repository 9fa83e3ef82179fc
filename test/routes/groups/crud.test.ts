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
