/**
 * The inbox tools driven as an agent drives them: list_comments pages like GET /v1/inbox/comments,
 * reply_to_comment sends once (a retry with its key answers the first result), hide_comment hides
 * and shows; refusals carry the API's codes.
 */
import { describe, expect, it } from 'vitest'
import { inboxSetup } from '../support/inbox-app'
import { mcpSession, serveApp } from '../support/mcp'

describe('MCP inbox tools', () => {
  it('lists comments, replies once and hides, over the same services as /v1/inbox', async () => {
    const { t, network, id } = await inboxSetup()
    const session = await mcpSession(t, await serveApp(t))
    const page = await session.ok('list_comments', { limit: 10 })
    expect(page.data.map((c: any) => c.id)).toEqual([id])
    expect(page.nextCursor).toBeNull()

    const reply = await session.ok('reply_to_comment', { id, text: 'Thanks!', idempotencyKey: 'agent-1' })
    expect(reply).toMatchObject({ status: 'SENT', comment: { fromAccount: true, parentId: id } })
    const again = await session.ok('reply_to_comment', { id, text: 'Thanks!', idempotencyKey: 'agent-1' })
    expect(again.id).toBe(reply.id)
    expect(network.calls.filter((c) => c.method === 'replyToComment')).toHaveLength(1)

    expect(await session.ok('hide_comment', { id })).toMatchObject({ id, state: 'hidden' })
    expect(await session.ok('hide_comment', { id, hidden: false })).toMatchObject({ id, state: 'replied' })

    const unknown = await session.refused('hide_comment', { id: 'cmt_unknown' })
    expect(unknown.code).toBe('not_found')
    network.comments.delete('net_1')
    const gone = await session.refused('reply_to_comment', { id, text: 'Still there?' })
    expect(gone.code).toBe('comment_gone')
  })
})
