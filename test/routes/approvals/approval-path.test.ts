import { describe, expect, it } from 'vitest'
import { account } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const IN_A_DAY = () => new Date(Date.now() + 86_400_000).toISOString()

async function gatedApp() {
  const t = await createTestApp()
  const res = await t.call('PATCH', '/v1/workspace', { body: { approvalRequired: true } })
  expect(res.status).toBe(200)
  return t
}

async function draft(t: TestApp, caption = 'For the client') {
  const a = await account(t, 'MESSAGING_NET')
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'draft', caption },
  })
  expect(res.status).toBe(200)
  return { post: await res.json(), account: a }
}

const refusal = async (res: Response, status: number, code: string) => {
  expect(res.status).toBe(status)
  const body = await res.json()
  expect(body.code).toBe(code)
  return body as { code: string; message: string; details?: any[] }
}

describe('the approval path over HTTP', () => {
  it('draft, submit with a schedule, approve: SCHEDULED at its time, handed to the queue', async () => {
    const t = await gatedApp()
    const { post } = await draft(t)
    expect(post).toMatchObject({ status: 'DRAFT', approvalRequired: true, approval: null, version: 1 })
    expect(post.createdBy).toMatchObject({ kind: 'token' })
    const at = IN_A_DAY()
    const submitted = await t.call('POST', `/v1/posts/${post.id}/submit`, {
      body: { action: 'schedule', scheduledAt: at, note: 'For Monday' },
    })
    expect(submitted.status).toBe(200)
    const inReview = await submitted.json()
    expect(inReview).toMatchObject({
      status: 'IN_REVIEW',
      approval: { state: 'IN_REVIEW', intent: { action: 'schedule', scheduledAt: at }, note: 'For Monday', version: 1 },
    })
    expect(t.publishQueue.deliveries.length).toBe(0)
    const approved = await t.call('POST', `/v1/posts/${post.id}/approve`, { body: { version: 1, comment: 'Go' } })
    expect(approved.status).toBe(200)
    const body = await approved.json()
    expect(body).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt: new Date(at).toISOString(),
      version: 2,
      approval: { state: 'APPROVED', comment: 'Go', decidedBy: { kind: 'token' } },
    })
    expect(t.publishQueue.deliveries.map((d) => d.notBefore.toISOString())).toEqual([new Date(at).toISOString()])
    const events = await (await t.call('GET', '/v1/events?limit=20')).json()
    const types = (events.data ?? events).map((e: { type: string }) => e.type)
    expect(types).toEqual(expect.arrayContaining(['post.submitted', 'post.approved']))
  })

  it('approve with now publishes as publish now would; with queue takes the next slot', async () => {
    const t = await gatedApp()
    const { post } = await draft(t)
    await t.call('POST', `/v1/posts/${post.id}/submit`, { body: { action: 'now' } })
    const now = await (await t.call('POST', `/v1/posts/${post.id}/approve`, { body: {} })).json()
    expect(now.status).toBe('PUBLISHING')
    const second = (await draft(t, 'queued')).post
    const noSlots = await t.call('POST', `/v1/posts/${second.id}/submit`, { body: { action: 'queue' } })
    await refusal(noSlots, 422, 'queue_not_configured')
  })

  it('gates create, schedule, publish and PATCH with an action, naming the step missing', async () => {
    const t = await gatedApp()
    const a = await account(t, 'MESSAGING_NET')
    const created = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'schedule', scheduledAt: IN_A_DAY(), caption: 'x' },
    })
    expect((await refusal(created, 409, 'approval_required')).message).toContain('submit it for review first')
    const { post } = await draft(t)
    const scheduled = await t.call('POST', `/v1/posts/${post.id}/schedule`, { body: { scheduledAt: IN_A_DAY() } })
    expect((await refusal(scheduled, 409, 'approval_required')).message).toBe(
      'This post needs approval before it can be scheduled, queued or published. Submit it for review first.',
    )
    await t.call('POST', `/v1/posts/${post.id}/submit`, { body: {} })
    const published = await t.call('POST', `/v1/posts/${post.id}/publish`)
    expect((await refusal(published, 409, 'approval_required')).message).toBe(
      'This post needs approval before it can be published. It is in review: wait for approval.',
    )
    await t.call('POST', `/v1/posts/${post.id}/request-changes`, { body: { comment: 'Shorter, please' } })
    const patched = await t.call('PATCH', `/v1/posts/${post.id}`, { body: { action: 'queue' } })
    expect((await refusal(patched, 409, 'approval_required')).message).toContain(
      'Changes were requested: edit it and submit it again.',
    )
    const csv = `accountIds,caption,action,scheduledAt\n${a.id},hello,schedule,${IN_A_DAY()}\n${a.id},draft one,draft,\n`
    const bulk = await (await t.call('POST', '/v1/posts/bulk', { body: { csv } })).json()
    expect(bulk).toMatchObject({ succeeded: 1, failed: 1 })
    expect(bulk.rows[0].error.code).toBe('approval_required')
  })

  it('request changes needs a comment, keeps it readable after the edit, and the post goes back to DRAFT', async () => {
    const t = await gatedApp()
    const { post } = await draft(t)
    await t.call('POST', `/v1/posts/${post.id}/submit`)
    await refusal(await t.call('POST', `/v1/posts/${post.id}/request-changes`, { body: {} }), 400, 'invalid_request')
    await refusal(
      await t.call('POST', `/v1/posts/${post.id}/request-changes`, { body: { comment: '   ' } }),
      400,
      'invalid_request',
    )
    const sent = await (
      await t.call('POST', `/v1/posts/${post.id}/request-changes`, { body: { comment: 'Shorter, please' } })
    ).json()
    expect(sent).toMatchObject({ status: 'CHANGES_REQUESTED', approval: { state: 'CHANGES_REQUESTED', comment: 'Shorter, please' } })
    const edited = await (await t.call('PATCH', `/v1/posts/${post.id}`, { body: { caption: 'Short' } })).json()
    expect(edited).toMatchObject({ status: 'DRAFT', approval: { comment: 'Shorter, please' } })
    const again = await t.call('POST', `/v1/posts/${post.id}/submit`)
    expect((await again.json()).status).toBe('IN_REVIEW')
  })

  it('editing an approved post sends it back to DRAFT; then it must be submitted again', async () => {
    const t = await gatedApp()
    const { post } = await draft(t)
    await t.call('POST', `/v1/posts/${post.id}/submit`)
    expect((await (await t.call('POST', `/v1/posts/${post.id}/approve`)).json()).status).toBe('APPROVED')
    const edited = await (await t.call('PATCH', `/v1/posts/${post.id}`, { body: { caption: 'changed' } })).json()
    expect(edited).toMatchObject({ status: 'DRAFT', approval: { state: 'APPROVED' } })
    const scheduled = await t.call('POST', `/v1/posts/${post.id}/schedule`, { body: { scheduledAt: IN_A_DAY() } })
    expect((await refusal(scheduled, 409, 'approval_required')).message).toContain('Submit it for review first.')
  })

  it('an approved post may be scheduled, and moved in time again without a new review', async () => {
    const t = await gatedApp()
    const { post } = await draft(t)
    await t.call('POST', `/v1/posts/${post.id}/submit`)
    await t.call('POST', `/v1/posts/${post.id}/approve`)
    const first = await t.call('POST', `/v1/posts/${post.id}/schedule`, { body: { scheduledAt: IN_A_DAY() } })
    expect((await first.json()).status).toBe('SCHEDULED')
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString()
    const moved = await t.call('POST', `/v1/posts/${post.id}/schedule`, { body: { scheduledAt: later } })
    expect(await moved.json()).toMatchObject({ status: 'SCHEDULED', approval: { state: 'APPROVED' } })
    const content = await t.call('PATCH', `/v1/posts/${post.id}`, { body: { caption: 'new', action: 'schedule' } })
    await refusal(content, 409, 'approval_required')
  })

  it('refuses every illegal transition in words', async () => {
    const t = await createTestApp()
    const { post } = await draft(t)
    const approve = await refusal(await t.call('POST', `/v1/posts/${post.id}/approve`), 409, 'invalid_transition')
    expect(approve.message).toBe('This post is DRAFT; only a post in review can be approved.')
    await t.call('POST', `/v1/posts/${post.id}/submit`)
    const twice = await refusal(await t.call('POST', `/v1/posts/${post.id}/submit`), 409, 'invalid_transition')
    expect(twice.message).toBe('This post is already in review; wait for the decision.')
    await t.call('POST', `/v1/posts/${post.id}/approve`)
    const changes = await refusal(
      await t.call('POST', `/v1/posts/${post.id}/request-changes`, { body: { comment: 'no' } }),
      409,
      'invalid_transition',
    )
    expect(changes.message).toBe('This post is APPROVED; only a post in review can be sent back for changes.')
    await refusal(await t.call('POST', '/v1/posts/post_nope/approve'), 404, 'not_found')
  })

  it('without the requirement any post may be submitted, and scheduling needs no approval', async () => {
    const t = await createTestApp()
    const { post } = await draft(t)
    expect(post.approvalRequired).toBe(false)
    expect((await (await t.call('POST', `/v1/posts/${post.id}/submit`)).json()).status).toBe('IN_REVIEW')
    const { post: other } = await draft(t, 'other')
    const res = await t.call('POST', `/v1/posts/${other.id}/schedule`, { body: { scheduledAt: IN_A_DAY() } })
    expect((await res.json()).status).toBe('SCHEDULED')
  })

  it('two approvals at once: one 200, one 409', async () => {
    const t = await gatedApp()
    const { post } = await draft(t)
    await t.call('POST', `/v1/posts/${post.id}/submit`, { body: { action: 'schedule', scheduledAt: IN_A_DAY() } })
    const answers = await Promise.all([
      t.call('POST', `/v1/posts/${post.id}/approve`, { body: { version: 1 } }),
      t.call('POST', `/v1/posts/${post.id}/approve`, { body: { version: 1 } }),
    ])
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409])
    const lost = await answers.find((r) => r.status === 409)!.json()
    expect(lost.code).toBe('invalid_transition')
  })

  it('a stale version answers 409 post_changed naming what changed', async () => {
    const t = await gatedApp()
    const { post } = await draft(t)
    await t.call('POST', `/v1/posts/${post.id}/submit`)
    await t.call('PATCH', `/v1/posts/${post.id}`, { body: { caption: 'changed after review was asked' } })
    const resubmitted = await (await t.call('POST', `/v1/posts/${post.id}/submit`)).json()
    expect(resubmitted.version).toBe(2)
    const stale = await refusal(
      await t.call('POST', `/v1/posts/${post.id}/approve`, { body: { version: 1 } }),
      409,
      'post_changed',
    )
    expect(stale.message).toContain('version 1, now 2')
    expect(stale.details?.[0]).toMatchObject({ path: 'version', expected: 1, actual: 2 })
    const ok = await t.call('POST', `/v1/posts/${post.id}/approve`, { body: { version: 2 } })
    expect(ok.status).toBe(200)
  })
})

describe('GET/PATCH /v1/workspace', () => {
  it('answers and changes the settings, refusing a bad name or time zone in words', async () => {
    const t = await createTestApp()
    const got = await (await t.call('GET', '/v1/workspace')).json()
    expect(got).toMatchObject({ id: t.workspaceId, approvalRequired: false, timezone: 'UTC' })
    const saved = await (
      await t.call('PATCH', '/v1/workspace', { body: { name: '  Agency  ', timezone: 'Europe/Berlin' } })
    ).json()
    expect(saved).toMatchObject({ name: 'Agency', timezone: 'Europe/Berlin', approvalRequired: false })
    const blank = await refusal(await t.call('PATCH', '/v1/workspace', { body: { name: '   ' } }), 400, 'invalid_request')
    expect(blank.details?.[0]?.path).toBe('name')
    await refusal(await t.call('PATCH', '/v1/workspace', { body: { name: 'x'.repeat(101) } }), 400, 'invalid_request')
    const zone = await refusal(
      await t.call('PATCH', '/v1/workspace', { body: { timezone: 'Mars/Olympus' } }),
      400,
      'invalid_request',
    )
    expect(zone.message).toContain('Unknown time zone "Mars/Olympus"')
    await refusal(await t.call('PATCH', '/v1/workspace', { body: { approvalRequired: 'yes' } }), 400, 'invalid_request')
    expect((await (await t.call('GET', '/v1/workspace')).json()).name).toBe('Agency')
  })
})
