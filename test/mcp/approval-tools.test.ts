/**
 * The approval path driven as an agent drives it: update_workspace turns approval on, create_post
 * with a schedule is refused with the step missing, submit_post / request_post_changes / approve_post
 * take the post to SCHEDULED, and get_workspace reports the setting.
 */
import { describe, expect, it } from 'vitest'
import { account } from '../support/fixtures'
import { mcpSession, serveApp } from '../support/mcp'
import { createTestApp } from '../support/test-app'

const IN_A_DAY = () => new Date(Date.now() + 86_400_000).toISOString()

describe('MCP approval tools', () => {
  it('submits, sends back, resubmits and approves a post where approval is required', async () => {
    const t = await createTestApp()
    const session = await mcpSession(t, await serveApp(t))
    expect(await session.ok('update_workspace', { approvalRequired: true, name: 'Client work' })).toMatchObject({
      approvalRequired: true,
      name: 'Client work',
    })
    expect(await session.ok('get_workspace')).toMatchObject({ name: 'Client work', approvalRequired: true })
    const badZone = await session.refused('update_workspace', { timezone: 'Nowhere/Land' })
    expect(badZone.code).toBe('invalid_request')

    const a = await account(t, 'MESSAGING_NET')
    const base = { type: 'IMAGE', accountIds: [a.id], mediaIds: [], caption: 'Launch day' }
    const refused = await session.refused('create_post', { ...base, action: 'schedule', scheduledAt: IN_A_DAY() })
    expect(refused.code).toBe('approval_required')
    const post = await session.ok('create_post', { ...base, action: 'draft' })
    expect(post.approvalRequired).toBe(true)

    const at = IN_A_DAY()
    const inReview = await session.ok('submit_post', { id: post.id, action: 'schedule', scheduledAt: at })
    expect(inReview).toMatchObject({ status: 'IN_REVIEW', approval: { intent: { action: 'schedule' } } })
    const publish = await session.refused('publish_post', { id: post.id })
    expect(publish).toMatchObject({ code: 'approval_required' })
    expect(publish.message).toContain('It is in review: wait for approval.')

    const sentBack = await session.ok('request_post_changes', { id: post.id, comment: 'Add the date' })
    expect(sentBack).toMatchObject({ status: 'CHANGES_REQUESTED', approval: { comment: 'Add the date' } })
    const edited = await session.ok('update_post', { id: post.id, changes: { caption: 'Launch day: 1 May' } })
    expect(edited.status).toBe('DRAFT')
    await session.ok('submit_post', { id: post.id, action: 'schedule', scheduledAt: at })

    const stale = await session.refused('approve_post', { id: post.id, version: 1 })
    expect(stale.code).toBe('post_changed')
    const approved = await session.ok('approve_post', { id: post.id, version: edited.version })
    expect(approved).toMatchObject({ status: 'SCHEDULED', scheduledAt: new Date(at).toISOString() })
    const again = await session.refused('approve_post', { id: post.id })
    expect(again.code).toBe('invalid_transition')
    expect(again.message).toBe('This post is SCHEDULED; only a post in review can be approved.')
  })
})
