/**
 * Acting on a comment through its network: hide and unhide, delete, like; what the network does
 * not allow is 422 `action_not_supported` naming it; a comment gone on the network is 409 and
 * marked gone; the network's refusals map to the contract's errors.
 */
import { describe, expect, it } from 'vitest'
import { ALL_ALLOWED, inboxSetup, json, SOME_REFUSED } from '../../support/inbox-app'

describe('inbox actions', () => {
  it('hides and shows a comment on the network, likes it, and deletes it there', async () => {
    const { t, network, id } = await inboxSetup()
    const hidden = await json(t, 'POST', `/v1/inbox/comments/${id}/hide`)
    expect(hidden.status).toBe(200)
    expect(hidden.body).toMatchObject({ id, state: 'hidden' })
    expect(network.comments.get('net_1')!.hidden).toBe(true)
    expect((await json(t, 'GET', '/v1/inbox/comments?state=hidden')).body.data.map((c: any) => c.id)).toEqual([id])
    const shown = await json(t, 'POST', `/v1/inbox/comments/${id}/unhide`)
    expect(shown.body.state).toBe('unread')
    expect(network.comments.get('net_1')!.hidden).toBe(false)

    const liked = await json(t, 'POST', `/v1/inbox/comments/${id}/like`)
    expect(liked.body).toMatchObject({ id, liked: true })
    expect(network.comments.get('net_1')!.liked).toBe(true)

    const deleted = await json(t, 'DELETE', `/v1/inbox/comments/${id}`)
    expect(deleted).toMatchObject({ status: 200, body: { id, deleted: true } })
    expect(network.comments.has('net_1')).toBe(false)
    expect((await json(t, 'GET', `/v1/inbox/comments/${id}`)).status).toBe(404)
    expect(network.calls.map((c) => c.method)).toEqual(['hideComment', 'hideComment', 'likeComment', 'deleteComment'])
  })

  it('answers 409 comment_gone for a comment deleted on the network, and marks it gone', async () => {
    const { t, network, id } = await inboxSetup()
    network.comments.delete('net_1')
    const answer = await json(t, 'POST', `/v1/inbox/comments/${id}/like`)
    expect(answer.status).toBe(409)
    expect(answer.body.error.code).toBe('comment_gone')
    expect(answer.body.error.message).toMatch(/no longer on/)
    expect((await json(t, 'GET', `/v1/inbox/comments/${id}`)).body.comment.gone).toBe(true)
    // Known gone: the network is not asked again.
    expect((await json(t, 'POST', `/v1/inbox/comments/${id}/hide`)).status).toBe(409)
    expect(network.calls).toHaveLength(1)
  })

  it('answers 422 action_not_supported naming the action the adapter cannot do', async () => {
    const { t, network, id } = await inboxSetup(ALL_ALLOWED, { without: ['likeComment'] })
    const answer = await json(t, 'POST', `/v1/inbox/comments/${id}/like`)
    expect(answer.status).toBe(422)
    expect(answer.body.error).toMatchObject({ code: 'action_not_supported', details: [{ action: 'like' }] })
    expect(network.calls).toHaveLength(0)
  })

  it.runIf(SOME_REFUSED !== undefined)('answers 422 action_not_supported for what the rules registry refuses', async () => {
    const { p, refused } = SOME_REFUSED!
    const { t, network, id } = await inboxSetup(p)
    const path =
      refused === 'delete'
        ? `/v1/inbox/comments/${id}`
        : `/v1/inbox/comments/${id}/${refused}`
    const answer = await json(t, refused === 'delete' ? 'DELETE' : 'POST', path, refused === 'reply' ? { text: 'hi' } : undefined)
    expect(answer.status).toBe(422)
    expect(answer.body.error.code).toBe('action_not_supported')
    expect(answer.body.error.message).toContain(`inbox.${refused}`)
    expect(network.calls).toHaveLength(0)
  })

  it('maps the network’s refusals: 429 with its wait, reconnect, refused in its words', async () => {
    const { t, network, id } = await inboxSetup()
    network.failNext('rate_limited', 120)
    const limited = await json(t, 'POST', `/v1/inbox/comments/${id}/hide`)
    expect(limited.status).toBe(429)
    expect(limited.body.error).toMatchObject({ code: 'rate_limited', retryAfterSec: 120 })
    network.failNext('auth_expired')
    expect((await json(t, 'POST', `/v1/inbox/comments/${id}/hide`)).body.error.code).toBe('account_not_connected')
    network.failNext('rejected')
    const refused = await json(t, 'POST', `/v1/inbox/comments/${id}/hide`)
    expect(refused.status).toBe(422)
    expect(refused.body.error.message).toContain('the network said rejected')
    // Nothing was noted of the refused calls.
    expect((await json(t, 'GET', `/v1/inbox/comments/${id}`)).body.comment.state).toBe('unread')
  })
})
