import { describe, expect, it } from 'vitest'
import { account } from '../../support/fixtures'
import { group, label, limitedToken } from '../../support/groups'
import { seedComments } from '../../support/inbox-seed'
import { createTestApp, type TestApp } from '../../support/test-app'

/** A workspace with accounts a (group A) and b (group B), posts on each and one on both, and a member limited to A. */
async function agency() {
  const t = await createTestApp()
  const a = await account(t, 'MICROBLOG_NET', 'client_a')
  const b = await account(t, 'MICROBLOG_NET', 'client_b')
  const ga = await group(t, 'Client A', [a.id])
  const gb = await group(t, 'Client B', [b.id])
  const draft = async (accountIds: string[]) =>
    (
      await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], action: 'draft', caption: 'hi', accountIds },
      })
    ).json()
  const onA = await draft([a.id])
  const onB = await draft([b.id])
  const both = await draft([a.id, b.id])
  const token = await limitedToken(t, [ga.id])
  const as = (method: string, path: string, body?: unknown) =>
    t.call(method, path, { token, ...(body === undefined ? {} : { body }) })
  return { t, a, b, ga, gb, onA, onB, both, token, as }
}

const ids = (list: Array<{ id: string }>) => list.map((p) => p.id).sort()

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(((await res.json()) as any).error.code).toBe(code)
}

describe('a member limited to group A', () => {
  it('lists only the accounts, groups and posts of A (a post spanning A and B included)', async () => {
    const { a, ga, gb, onA, both, as } = await agency()
    expect(ids(await (await as('GET', '/v1/accounts')).json())).toEqual([a.id])
    expect(ids(await (await as('GET', '/v1/groups')).json())).toEqual([ga.id])
    expect(ids(await (await as('GET', '/v1/posts')).json())).toEqual(ids([onA, both]))
    expect((await as('GET', '/v1/posts?page=1')).status).toBe(200)
    expect((await (await as('GET', '/v1/posts?page=1')).json()).total).toBe(2)
    // B's group is as unknown to them as a group that does not exist.
    await expectError(await as('GET', `/v1/groups/${gb.id}`), 404, 'not_found')
    await expectError(await as('GET', `/v1/posts?groupId=${gb.id}`), 404, 'not_found')
    await expectError(await as('GET', `/v1/accounts?groupId=${gb.id}`), 404, 'not_found')
  })

  it("answers 404 for B's account and post on every route that names them", async () => {
    const { b, onB, as } = await agency()
    for (const path of [
      `/v1/accounts/${b.id}`,
      `/v1/accounts/${b.id}/boards`,
      `/v1/accounts/${b.id}/destinations`,
      `/v1/posts/${onB.id}`,
      `/v1/posts/${onB.id}/analytics`,
    ]) {
      await expectError(await as('GET', path), 404, 'not_found')
    }
    await expectError(await as('PATCH', `/v1/posts/${onB.id}`, { caption: 'x' }), 404, 'not_found')
    await expectError(await as('DELETE', `/v1/posts/${onB.id}`), 404, 'not_found')
    await expectError(
      await as('POST', `/v1/posts/${onB.id}/schedule`, { scheduledAt: '2030-01-01T00:00:00Z' }),
      404,
      'not_found',
    )
    await expectError(await as('POST', `/v1/posts/${onB.id}/publish`), 404, 'not_found')
    await expectError(await as('POST', `/v1/posts/${onB.id}/retry`), 404, 'not_found')
    await expectError(await as('GET', `/v1/analytics?accountId=${b.id}`), 404, 'not_found')
  })

  it('sees a post spanning A and B but cannot change it (403); changes a post of A alone', async () => {
    const { t, a, b, onA, both, as } = await agency()
    const read = await as('GET', `/v1/posts/${both.id}`)
    expect(read.status).toBe(200)
    const refused = await as('PATCH', `/v1/posts/${both.id}`, { caption: 'edited' })
    expect(refused.status).toBe(403)
    expect((await refused.json()).error).toMatchObject({
      code: 'forbidden',
      message: 'This post also goes to accounts outside your groups.',
    })
    await expectError(await as('DELETE', `/v1/posts/${both.id}`), 403, 'forbidden')
    await expectError(await as('POST', `/v1/posts/${both.id}/publish`), 403, 'forbidden')
    expect((await (await t.call('GET', `/v1/posts/${both.id}`)).json()).caption).toBe('hi')

    const edited = await as('PATCH', `/v1/posts/${onA.id}`, { caption: 'mine' })
    expect(edited.status).toBe(200)
    // Moving their post to B's account is refused as an unknown account.
    await expectError(await as('PATCH', `/v1/posts/${onA.id}`, { accountIds: [b.id] }), 422, 'account_not_found')
    expect((await as('PATCH', `/v1/posts/${onA.id}`, { accountIds: [a.id] })).status).toBe(200)
  })

  it('cannot create a post on an account outside A (422 account_not_found, as an unknown id)', async () => {
    const { a, b, as } = await agency()
    const body = { type: 'IMAGE', mediaIds: [], action: 'draft', caption: 'hi' }
    const refused = await as('POST', '/v1/posts', { ...body, accountIds: [a.id, b.id] })
    expect(refused.status).toBe(422)
    expect((await refused.json()).error).toMatchObject({
      code: 'account_not_found',
      message: `Account ${b.id} is not in this workspace.`,
      details: [{ path: 'accountIds.1' }],
    })
    await expectError(await as('POST', '/v1/posts/validate', { ...body, accountIds: [b.id] }), 422, 'account_not_found')
    expect((await as('POST', '/v1/posts', { ...body, accountIds: [a.id] })).status).toBe(200)
  })

  it('reads and acts on the inbox comments of A only', async () => {
    const { t, a, b, as } = await agency()
    const [onA, onB] = await seedComments(t.deps.db, [
      { workspaceId: t.workspaceId, accountId: a.id, platform: 'MICROBLOG_NET', externalId: 'ca', createdAt: new Date() },
      { workspaceId: t.workspaceId, accountId: b.id, platform: 'MICROBLOG_NET', externalId: 'cb', createdAt: new Date() },
    ])
    const page = await (await as('GET', '/v1/inbox/comments')).json()
    expect(page.data.map((c: any) => c.id)).toEqual([onA])
    expect((await (await t.call('GET', '/v1/inbox/comments')).json()).data).toHaveLength(2)
    expect(await (await as('GET', '/v1/inbox/unread-count')).json()).toMatchObject({ comments: 1 })
    await expectError(await as('GET', `/v1/inbox/comments/${onB}`), 404, 'not_found')
    await expectError(await as('POST', `/v1/inbox/comments/${onB}/read`), 404, 'not_found')
    expect((await as('GET', `/v1/inbox/comments/${onA}`)).status).toBe(200)
    await expectError(await as('POST', '/v1/inbox/comments/read', { commentIds: [onA, onB] }), 422, 'invalid_option')
  })

  it('sees the analytics of A only', async () => {
    const { t, a, as } = await agency()
    const body = await (await as('GET', '/v1/analytics')).json()
    expect(body.accounts.map((x: any) => x.accountId)).toEqual([a.id])
    expect((await (await t.call('GET', '/v1/analytics')).json()).accounts).toHaveLength(2)
  })

  it('an unlimited member and the owner see everything', async () => {
    const { t, onB } = await agency()
    const token = await limitedToken(t, null)
    expect((await t.call('GET', `/v1/posts/${onB.id}`, { token })).status).toBe(200)
    expect(await (await t.call('GET', '/v1/posts', { token })).json()).toHaveLength(3)
    const l = await label(t, 'x')
    expect((await t.call('GET', `/v1/posts?labelId=${l.id}`, { token })).status).toBe(200)
  })
})
