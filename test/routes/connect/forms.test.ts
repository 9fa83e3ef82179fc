/**
 * Networks without OAuth on the hosted page, over real HTTP against their fakes: the form the
 * connection's credentials need, the network asked before anything is stored (the messaging bot
 * must be able to post), the form again with the problem in words, secrets never echoed back.
 */
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { startChatFake } from '../../fakes/chat'
import { startMessagingFake } from '../../fakes/messaging'
import { startOpenProtocolFake } from '../../fakes/open-protocol'
import { readForm, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'

const accountCount = async (t: ServedApp) =>
  (await t.deps.db.select({ n: count() }).from(accounts).where(eq(accounts.workspaceId, t.workspaceId)))[0]!.n

async function openForm(t: ServedApp, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v1/accounts/connect', { body })
  expect(res.status).toBe(200)
  const page = await visit((await res.json()).url)
  expect(page.response.status).toBe(200)
  return { page, form: readForm(page.body) }
}

const submit = (t: ServedApp, action: string, fields: Record<string, string>) =>
  visit(new URL(action, t.baseUrl).href, { method: 'POST', form: fields, stopAt: APP })

describe('hosted connect, form-based networks', () => {
  it('messaging: connects a bot that can post in the chat, and refuses one that cannot, in words', async () => {
    const fake = await startMessagingFake()
    const t = await serveTestApp({
      connectRedirectOrigins: [APP],
      networks: { origins: { MESSAGING_NET_API_URL: fake.url } },
    })
    const { page, form } = await openForm(t, { platform: 'MESSAGING_NET', redirectUrl: `${APP}/cb` })
    expect(Object.keys(form.fields)).toEqual(['botToken', 'chatId'])
    expect(page.body).toMatch(/name="botToken" type="password"/)
    expect(page.response.headers.get('content-security-policy')).toContain(`form-action 'self' ${APP}`)

    fake.setMember({ status: 'member' })
    const refused = await submit(t, form.action, { botToken: fake.token, chatId: '@acmenews' })
    expect(refused.response.status).toBe(422)
    expect(refused.body).toContain('is not an administrator of the channel')
    expect(refused.body).not.toContain(fake.token)
    expect(refused.body).toContain('value="@acmenews"')
    expect(await accountCount(t)).toBe(0)

    fake.setMember({ status: 'administrator', can_post_messages: true })
    const done = new URL((await submit(t, form.action, { botToken: fake.token, chatId: '@acmenews' })).url)
    const accountId = done.searchParams.get('accountId')!
    const account = await (await t.call('GET', `/v1/accounts/${accountId}`)).json()
    expect(account).toMatchObject({ platform: 'MESSAGING_NET', connection: 'BOT_TOKEN', username: 'acmenews' })

    // The link is spent: a second submission connects nothing.
    const again = await submit(t, form.action, { botToken: fake.token, chatId: '@acmenews' })
    expect(again.response.status).toBe(410)
    expect(await accountCount(t)).toBe(1)
  })

  it('chat: connects a webhook URL, and refuses a forged one', async () => {
    const fake = await startChatFake()
    const t = await serveTestApp({ networks: { origins: { CHAT_NET_API_URL: fake.url } } })
    const { form } = await openForm(t, { platform: 'CHAT_NET', connection: 'WEBHOOK' })
    expect(Object.keys(form.fields)).toEqual(['webhookUrl'])
    const forged = await submit(t, form.action, { webhookUrl: fake.webhookUrl.replace(/tok$/, 'forged') })
    expect(forged.response.status).toBe(422)
    expect(forged.body).not.toContain('forged')
    expect(await accountCount(t)).toBe(0)
    const done = await submit(t, form.action, { webhookUrl: fake.webhookUrl })
    expect(done.response.status).toBe(200)
    expect(done.body).toContain('is connected')
    expect(await accountCount(t)).toBe(1)
  })

  it('open protocol: connects with handle and app password on the given server, refuses a wrong password', async () => {
    const fake = await startOpenProtocolFake({ now: () => new Date(), appPassword: 'abcd-efgh-ijkl-mnop' })
    const t = await serveTestApp()
    const { page, form } = await openForm(t, { platform: 'OPENPROTOCOL_NET' })
    expect(Object.keys(form.fields)).toEqual(['serviceUrl', 'identifier', 'appPassword'])
    expect(form.fields.serviceUrl).toBe('https://bsky.social')
    expect(page.body).toMatch(/name="appPassword" type="password"/)
    const wrong = await submit(t, form.action, { serviceUrl: fake.url, identifier: 'alice.test', appPassword: 'nope' })
    expect(wrong.response.status).toBe(422)
    expect(await accountCount(t)).toBe(0)
    const done = await submit(t, form.action, {
      serviceUrl: fake.url,
      identifier: 'alice.test',
      appPassword: 'abcd-efgh-ijkl-mnop',
    })
    expect(done.response.status).toBe(200)
    expect(done.body).toContain('alice.test')
    expect(await accountCount(t)).toBe(1)
  })

  it('answers 422 for a connection the page cannot connect yet, naming the way that works', async () => {
    const t = await serveTestApp()
    const res = await t.call('POST', '/v1/accounts/connect', {
      body: { platform: 'PHOTO_NET', connection: 'DIRECT_LOGIN' },
    })
    expect(res.status).toBe(422)
    expect((await res.json()).error.message).toContain('account add')
  })
})
