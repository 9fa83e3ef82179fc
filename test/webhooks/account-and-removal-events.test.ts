import { describe, expect, it } from 'vitest'
import { account } from '../support/fixtures'
import { runDue } from '../support/engine'
import { addEndpoint, movableClock, startReceiver, until, verify, webhookApp } from './support'

describe('webhooks for disconnecting an account and deleting a post from the networks', () => {
  it('a disconnect sends target.failed and post.failed for its scheduled post, then account.disconnected', async () => {
    const t = await webhookApp({ clock: movableClock() })
    const receiver = await startReceiver()
    const types = ['target.failed', 'post.failed', 'account.disconnected']
    const endpoint = await addEndpoint(t, receiver.url, types)
    const acc = await account(t, 'MICROBLOG_NET')
    const scheduledAt = new Date(t.deps.clock.now().getTime() + 86_400_000).toISOString()
    const created = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [acc.id], mediaIds: [], action: 'schedule', scheduledAt, caption: 'later' },
    })
    const post = await created.json()
    expect((await t.call('DELETE', `/v1/accounts/${acc.id}`)).status).toBe(200)

    await until(
      async () => receiver.received.length,
      (n) => n >= 3,
    )
    for (const message of receiver.received) verify(endpoint.secret, message)
    const byType = new Map(receiver.received.map((m) => [m.json.type, m.json.data]))
    expect([...byType.keys()].sort()).toEqual([...types].sort())
    expect(byType.get('target.failed')).toMatchObject({
      postId: post.id,
      target: { error: { code: 'account_disconnected' } },
    })
    expect(byType.get('post.failed')).toMatchObject({ id: post.id, status: 'FAILED' })
    expect(byType.get('account.disconnected')).toMatchObject({ id: acc.id, status: 'DISCONNECTED' })
  })

  it('deleting from the networks sends post.deleted with the post as it was, once our record goes', async () => {
    const t = await webhookApp({ clock: movableClock() })
    const receiver = await startReceiver()
    const endpoint = await addEndpoint(t, receiver.url, ['post.deleted'])
    const acc = await account(t, 'MICROBLOG_NET')
    const created = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [acc.id], mediaIds: [], action: 'now', caption: 'gone soon' },
    })
    const post = await created.json()
    await runDue(t, t.publishQueue)
    const removal = await (await t.call('DELETE', `/v1/posts/${post.id}?fromNetworks=true`)).json()
    expect(removal).toMatchObject({ deleted: true, targets: [{ outcome: 'deleted' }] })

    const [message] = await until(
      async () => receiver.received,
      (r) => r.length >= 1,
    )
    verify(endpoint.secret, message!)
    expect(message!.json).toMatchObject({ type: 'post.deleted', data: { id: post.id, status: 'PUBLISHED' } })
    expect(message!.json.data.targets).toMatchObject([{ accountId: acc.id, status: 'PUBLISHED' }])
  })
})
