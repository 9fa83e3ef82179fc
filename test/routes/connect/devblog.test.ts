/**
 * The developer blogging network on the hosted connect page: its one field (the API key, typed as
 * a password), the network asked (`GET /api/users/me`) before anything is stored, a wrong key
 * refused in the network's words and never echoed back, and a reconnect keeping the account.
 */
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { startDevblogFake } from '../../fakes/devblog'
import { readForm, serveTestApp, type ServedApp, visit } from '../../support/browser'

const accountCount = async (t: ServedApp) =>
  (await t.deps.db.select({ n: count() }).from(accounts).where(eq(accounts.workspaceId, t.workspaceId)))[0]!.n

describe('hosted connect, developer blogging network', () => {
  it('connects with an API key, refuses a wrong one in words, and reconnects the same account', async () => {
    const fake = await startDevblogFake({ now: () => new Date() })
    const t = await serveTestApp({ networks: { origins: { DEVBLOG_NET_API_URL: fake.url } } })
    const link = await (await t.call('POST', '/v1/accounts/connect', { body: { platform: 'DEVBLOG_NET' } })).json()
    const page = await visit(link.url)
    const form = readForm(page.body)
    expect(Object.keys(form.fields)).toEqual(['apiKey'])
    expect(page.body).toMatch(/name="apiKey" type="password"/)
    const submit = (apiKey: string) => visit(new URL(form.action, t.baseUrl).href, { method: 'POST', form: { apiKey } })

    const wrong = await submit('wrong-key')
    expect(wrong.response.status).toBe(422)
    expect(wrong.body).toContain('unauthorized')
    expect(wrong.body).not.toContain('wrong-key')
    expect(await accountCount(t)).toBe(0)

    const done = await submit(fake.apiKey)
    expect(done.response.status).toBe(200)
    expect(done.body).toContain('ada_writes')
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.workspaceId, t.workspaceId))
    expect(row).toMatchObject({ platform: 'DEVBLOG_NET', connection: 'API_KEY', externalId: '4242' })

    // A new key for the same user: the reconnect link keeps the account id.
    fake.state.apiKeys.add('dev-key-2')
    const again = await (await t.call('POST', `/v1/accounts/${row!.id}/reconnect`, { body: {} })).json()
    const reconnectForm = readForm((await visit(again.url)).body)
    const renewed = await visit(new URL(reconnectForm.action, t.baseUrl).href, {
      method: 'POST',
      form: { apiKey: 'dev-key-2' },
    })
    expect(renewed.response.status).toBe(200)
    expect(renewed.body).toContain('reconnected')
    expect(await accountCount(t)).toBe(1)
  })
})
