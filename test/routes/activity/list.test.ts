import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { activityLog } from '../../../src/db/schema'
import { SYSTEM_ACTOR } from '../../../src/domain/access'
import { recordActivity } from '../../../src/services/activity/record'
import { purgeExpiredActivity } from '../../../src/services/activity/retention'
import { createToken } from '../../../src/services/tokens'
import { runDue } from '../../support/engine'
import { account } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const IN_A_DAY = () => new Date(Date.now() + 86_400_000).toISOString()

const entriesOf = async (t: TestApp) =>
  t.deps.db.select().from(activityLog).where(eq(activityLog.workspaceId, t.workspaceId)).orderBy(activityLog.at)

async function scheduledPost(t: TestApp, caption = 'hello') {
  const a = await account(t, 'MESSAGING_NET')
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'schedule', scheduledAt: IN_A_DAY(), caption },
  })
  expect(res.status).toBe(200)
  return { post: await res.json(), account: a }
}

describe('the activity log of API changes', () => {
  it("records each change of a post by the token, with its address and the edit's fields", async () => {
    const t = await createTestApp()
    const { post } = await scheduledPost(t)
    await t.call('PATCH', `/v1/posts/${post.id}`, { body: { caption: 'second', firstComment: 'hi' } })
    await t.call('POST', `/v1/posts/${post.id}/schedule`, { body: { scheduledAt: IN_A_DAY() } })
    await t.call('DELETE', `/v1/posts/${post.id}`)
    const rows = (await entriesOf(t)).filter((r) => r.subjectId === post.id)
    expect(rows.map((r) => r.action)).toEqual(['post.created', 'post.updated', 'post.scheduled', 'post.deleted'])
    for (const r of rows) {
      expect(r.actorKind).toBe('token')
      expect(r.actor.kind).toBe('token')
      expect(r.ip).toBe(t.ip)
      expect(r.summary).not.toContain(t.token)
    }
    expect(rows[1]!.details).toMatchObject({ changed: ['caption', 'firstComment'] })
    expect(rows[0]!.summary).toMatch(/created post .+ for \d+ \w+ \d{4} \d\d:\d\d UTC$/)
  })

  it('leaves no entry for a refused change (same transaction)', async () => {
    const t = await createTestApp()
    const { post } = await scheduledPost(t)
    const refused = await t.call('POST', `/v1/posts/${post.id}/schedule`, {
      body: { scheduledAt: new Date(Date.now() - 60_000).toISOString() },
    })
    expect(refused.status).toBe(422)
    expect((await t.call('DELETE', '/v1/posts/post_doesnotexist')).status).toBe(404)
    expect((await entriesOf(t)).map((r) => r.action)).toEqual(['token.created', 'account.connected', 'post.created'])
  })

  it("records the engine's outcomes as the service", async () => {
    const t = await createTestApp()
    const a = await account(t, 'MICROBLOG_NET')
    const res = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'now', caption: 'out now' },
    })
    expect(res.status).toBe(200)
    const post = await res.json()
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const rows = (await entriesOf(t)).filter((r) => r.subjectId === post.id)
    expect(rows.map((r) => r.action)).toEqual(['post.created', 'target.published', 'post.published'])
    expect(rows[1]!.actor).toEqual(SYSTEM_ACTOR)
    expect(rows[1]!.ip).toBeNull()
  })

  it('records webhook endpoints and disconnects by the token', async () => {
    const t = await createTestApp()
    const created = await t.call('POST', '/v1/webhooks', {
      body: { url: 'https://hooks.example.com/in', events: ['post.published'] },
    })
    expect(created.status).toBe(200)
    const endpoint = await created.json()
    await t.call('PATCH', `/v1/webhooks/${endpoint.id}`, { body: { enabled: false } })
    await t.call('POST', `/v1/webhooks/${endpoint.id}/rotate-secret`)
    await t.call('DELETE', `/v1/webhooks/${endpoint.id}`)
    const a = await account(t, 'MESSAGING_NET')
    await t.call('DELETE', `/v1/accounts/${a.id}`)
    const rows = await entriesOf(t)
    expect(rows.map((r) => r.action)).toEqual([
      'token.created',
      'webhook.created',
      'webhook.disabled',
      'webhook.secret_rotated',
      'webhook.deleted',
      'account.connected',
      'account.disconnected',
    ])
    for (const r of rows) expect(JSON.stringify(r)).not.toContain(endpoint.secret)
    expect(rows[6]).toMatchObject({ actorKind: 'token', subjectId: a.id })
  })
})

describe('GET /v1/activity', () => {
  it('filters by actor kind, action (exact or prefix), subject and time, and pages by cursor', async () => {
    const t = await createTestApp()
    const { post } = await scheduledPost(t)
    await t.call('PATCH', `/v1/posts/${post.id}`, { body: { caption: 'b' } })
    await t.call('PATCH', `/v1/posts/${post.id}`, { body: { caption: 'c' } })
    const all = await (await t.call('GET', '/v1/activity')).json()
    expect(all.data.map((e: { action: string }) => e.action)).toEqual([
      'post.updated',
      'post.updated',
      'post.created',
      'account.connected',
      'token.created',
    ])
    expect(all.nextCursor).toBeNull()
    const prefix = await (await t.call('GET', '/v1/activity?action=post.')).json()
    expect(prefix.data).toHaveLength(3)
    const exact = await (await t.call('GET', '/v1/activity?action=post.created')).json()
    expect(exact.data).toHaveLength(1)
    const tokens = await (await t.call('GET', '/v1/activity?actorKind=token')).json()
    expect(tokens.data).toHaveLength(3)
    const system = await (await t.call('GET', '/v1/activity?actorKind=system')).json()
    expect(system.data.map((e: { action: string }) => e.action)).toEqual(['account.connected', 'token.created'])
    const subject = await (await t.call('GET', `/v1/activity?subjectType=post&subjectId=${post.id}`)).json()
    expect(subject.data).toHaveLength(3)
    const future = await (await t.call('GET', `/v1/activity?from=${encodeURIComponent(IN_A_DAY())}`)).json()
    expect(future.data).toHaveLength(0)
    const first = await (await t.call('GET', '/v1/activity?limit=3')).json()
    expect(first.data).toHaveLength(3)
    expect(first.nextCursor).toBe(first.data[2].id)
    const second = await (await t.call('GET', `/v1/activity?limit=3&cursor=${first.nextCursor}`)).json()
    expect(second.data.map((e: { action: string }) => e.action)).toEqual(['account.connected', 'token.created'])
    expect(second.nextCursor).toBeNull()
    const bad = await t.call('GET', '/v1/activity?cursor=act_unknown')
    expect(bad.status).toBe(400)
  })

  it("answers CSV with formula cells guarded, and never another workspace's entries", async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const sneaky = await createToken(t.deps.db, t.workspaceId, '=HYPERLINK("http://x")')
    await account(t, 'MESSAGING_NET')
    const a = await account(t, 'MICROBLOG_NET')
    await t.call('DELETE', `/v1/accounts/${a.id}`, { token: sneaky.token })
    const res = await t.call('GET', '/v1/activity?action=account.disconnected', { headers: { Accept: 'text/csv' } })
    expect(res.headers.get('content-type')).toContain('text/csv')
    expect(res.headers.get('x-rows-left-off')).toBe('0')
    const lines = (await res.text()).split('\r\n')
    expect(lines[0]).toBe('id,at,actor_kind,actor_id,actor_name,action,subject_type,subject_id,summary,ip,details')
    expect(lines).toHaveLength(3)
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"")"`)
    const mine = await (await t.call('GET', '/v1/activity')).json()
    const theirs = await other.call('GET', `/v1/activity?cursor=${mine.data[0].id}`)
    expect(theirs.status).toBe(400)
    const bySubject = await (await other.call('GET', `/v1/activity?subjectId=${a.id}`)).json()
    expect(bySubject.data).toEqual([])
  })
})

describe('retention', () => {
  it("deletes the entries older than the workspace's plan keeps, and only those", async () => {
    const t = await createTestApp({ plan: 'free' })
    const now = new Date()
    const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000)
    for (const at of [daysAgo(31), daysAgo(40), daysAgo(29)]) {
      await recordActivity(t.deps.db as never, {
        workspaceId: t.workspaceId,
        actor: SYSTEM_ACTOR,
        ip: null,
        action: 'test.old',
        subject: { type: 'test', id: null },
        summary: 'Old entry',
        now: at,
      })
    }
    // The job's pass runs over every workspace (other runs share the database): until nothing is left.
    while ((await purgeExpiredActivity(t.deps.db, { now })) > 0);
    const left = await t.deps.db
      .select({ at: activityLog.at })
      .from(activityLog)
      .where(and(eq(activityLog.workspaceId, t.workspaceId), eq(activityLog.action, 'test.old')))
    expect(left.map((r) => r.at.getTime())).toEqual([daysAgo(29).getTime()])
  })
})
