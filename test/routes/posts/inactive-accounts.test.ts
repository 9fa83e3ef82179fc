import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { account } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

describe('a new post and an account that cannot publish', () => {
  it('refuses a create that is to go out, and its dry run, with 422 account_not_connected naming each EXPIRED or DISCONNECTED account', async () => {
    const t = await createTestApp()
    const ok = await account(t, 'MICROBLOG_NET')
    const gone = await account(t, 'FEDERATED_NET')
    const stale = await account(t, 'CHAT_NET')
    expect((await t.call('DELETE', `/v1/accounts/${gone.id}`)).status).toBe(200)
    await t.deps.db
      .update(accounts)
      .set({ status: 'EXPIRED', statusMessage: 'token expired: reconnect the account' })
      .where(eq(accounts.id, stale.id))
    const before = await (await t.call('GET', '/v1/posts')).json()

    const body = { type: 'IMAGE', accountIds: [ok.id, gone.id, stale.id], mediaIds: [], action: 'now', caption: 'x' }
    const res = await t.call('POST', '/v1/posts', { body })
    expect(res.status).toBe(422)
    const { error } = await res.json()
    expect(error.code).toBe('account_not_connected')
    expect(error.details).toMatchObject([
      { path: 'accountIds.1', platform: 'FEDERATED_NET', message: expect.stringContaining('DISCONNECTED') },
      { path: 'accountIds.2', platform: 'CHAT_NET', message: expect.stringContaining('token expired') },
    ])
    expect(await (await t.call('GET', '/v1/posts')).json()).toEqual(before)

    const dry = await (await t.call('POST', '/v1/posts/validate', { body })).json()
    expect(dry.valid).toBe(false)
    expect(dry.errors.map((e: { code: string; path: string }) => `${e.code} ${e.path}`)).toEqual([
      'account_not_connected accountIds.1',
      'account_not_connected accountIds.2',
    ])

    const single = await t.call('POST', '/v1/posts', { body: { ...body, accountIds: [gone.id] } })
    expect((await single.json()).error.message).toMatch(new RegExp(`account ${gone.id} is DISCONNECTED.*reconnect`))
    const fine = await t.call('POST', '/v1/posts', { body: { ...body, accountIds: [ok.id] } })
    expect(fine.status).toBe(200)
    // A draft publishes nothing: it may name the account, to be reconnected before the post goes out.
    const draft = await t.call('POST', '/v1/posts', { body: { ...body, action: 'draft' } })
    expect(draft.status).toBe(200)
  })
})
