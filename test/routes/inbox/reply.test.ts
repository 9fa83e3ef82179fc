/**
 * Replying to a comment, at most once: the text counted like a caption (422 with the count), the
 * reply in the thread and the comment replied in one transaction, a retry with the same
 * Idempotency-Key answering the first result, and a retry after the process died mid-call answering
 * 409 `reply_unconfirmed` without calling the network again.
 */
import { describe, expect, it } from 'vitest'
import { replyBudgetOf } from '../../../src/domain/reply-text'
import { ALL_ALLOWED, inboxSetup, json } from '../../support/inbox-app'

describe('POST /v1/inbox/comments/{id}/reply', () => {
  it('sends the reply once, shows it in the thread and marks the comment replied; a retry with the key replays', async () => {
    const { t, network, id } = await inboxSetup()
    const key = { 'idempotency-key': 'reply-1' }
    const sent = await json(t, 'POST', `/v1/inbox/comments/${id}/reply`, { text: 'Thank you!' }, key)
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({
      status: 'SENT',
      commentId: id,
      text: 'Thank you!',
      externalId: 'net_reply_1',
      comment: { fromAccount: true, parentId: id, state: 'read', text: 'Thank you!' },
    })
    const again = await json(t, 'POST', `/v1/inbox/comments/${id}/reply`, { text: 'Thank you!' }, key)
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(sent.body)
    expect(network.calls.filter((c) => c.method === 'replyToComment')).toHaveLength(1)

    const thread = await json(t, 'GET', `/v1/inbox/comments/${id}`)
    expect(thread.body.comment.state).toBe('replied')
    expect(thread.body.replies.map((r: any) => r.text)).toEqual(['Thank you!'])
    expect(thread.body.sentReplies).toMatchObject([{ status: 'SENT', externalId: 'net_reply_1' }])
    // The account's own reply is in the thread, not in the list.
    expect((await json(t, 'GET', '/v1/inbox/comments')).body.data.map((c: any) => c.id)).toEqual([id])

    const otherKey = await json(t, 'POST', `/v1/inbox/comments/${id}/reply`, { text: 'Something else' }, key)
    expect(otherKey.status).toBe(422)
    expect(otherKey.body.error.code).toBe('idempotency_key_reused')
  })

  it('refuses a reply over the network’s budget with the count, and sends nothing', async () => {
    const { t, network, id } = await inboxSetup()
    const budget = replyBudgetOf(ALL_ALLOWED)
    const answer = await json(t, 'POST', `/v1/inbox/comments/${id}/reply`, { text: 'x'.repeat(budget + 5) })
    expect(answer.status).toBe(422)
    expect(answer.body.error).toMatchObject({
      code: 'caption_too_long',
      details: [{ path: 'text', platform: ALL_ALLOWED, limit: budget, actual: budget + 5 }],
    })
    expect(network.calls).toHaveLength(0)
  })

  it('after a process died mid-call, a retry with the same key answers UNCONFIRMED and calls nothing', async () => {
    const { t, network, clock, id } = await inboxSetup()
    // The network takes the reply and never answers: the request is left in flight, as a dead process leaves it.
    network.holdReplies(new Promise(() => {}))
    const key = { 'idempotency-key': 'reply-dies' }
    void json(t, 'POST', `/v1/inbox/comments/${id}/reply`, { text: 'Hello' }, key)
    for (let i = 0; i < 100 && network.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 10))
    expect(network.calls).toHaveLength(1)
    // The dead request's hold on its key lapses (a minute); the retry reaches the reply's row.
    clock.set('2026-11-22T10:05:00Z')
    network.holdReplies(null)
    const retry = await json(t, 'POST', `/v1/inbox/comments/${id}/reply`, { text: 'Hello' }, key)
    expect(retry.status).toBe(409)
    expect(retry.body.error.code).toBe('reply_unconfirmed')
    expect(retry.body.error.message).toMatch(/may or may not be on the network/)
    expect(network.calls).toHaveLength(1)
    const again = await json(t, 'POST', `/v1/inbox/comments/${id}/reply`, { text: 'Hello' }, key)
    expect(again.body.error.code).toBe('reply_unconfirmed')
    expect(network.calls).toHaveLength(1)
    const thread = await json(t, 'GET', `/v1/inbox/comments/${id}`)
    expect(thread.body.sentReplies).toMatchObject([{ status: 'UNCONFIRMED', error: { code: 'unconfirmed' } }])
    expect(thread.body.comment.state).toBe('unread')
  })

  it('a reply the network refused can be sent again with the same key; an unreadable answer is UNCONFIRMED', async () => {
    const { t, network, id } = await inboxSetup()
    const key = { 'idempotency-key': 'reply-refused' }
    network.failNext('rate_limited', 30)
    const limited = await json(t, 'POST', `/v1/inbox/comments/${id}/reply`, { text: 'Hi' }, key)
    expect(limited.status).toBe(429)
    const sent = await json(t, 'POST', `/v1/inbox/comments/${id}/reply`, { text: 'Hi' }, key)
    expect(sent.body.status).toBe('SENT')
    expect(network.calls).toHaveLength(2)

    network.failNext('unconfirmed')
    const lost = await json(t, 'POST', `/v1/inbox/comments/${id}/reply`, { text: 'Lost?' }, { 'idempotency-key': 'reply-lost' })
    expect(lost.status).toBe(409)
    expect(lost.body.error.code).toBe('reply_unconfirmed')
    const retry = await json(t, 'POST', `/v1/inbox/comments/${id}/reply`, { text: 'Lost?' }, { 'idempotency-key': 'reply-lost' })
    expect(retry.status).toBe(409)
    expect(retry.body.error.code).toBe('reply_unconfirmed')
    expect(network.calls).toHaveLength(3)
  })
})
