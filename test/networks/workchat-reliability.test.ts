/**
 * WORKCHAT_NET's guarantees against its fake: a 429 waits its `Retry-After`, a 5xx is retried,
 * `internal_error` after a write and an unreadable answer are settled by looking the message up
 * (never sent twice), a lost claim is confirmed from the channel, a rotating token is renewed and a
 * revoked one asks for a reconnect, delete removes the head and its replies, metrics are read.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { targets } from '../../src/db/schema'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { buildTargetContent } from '../../src/services/publishing/target-content'
import { runDue } from '../support/engine'
import { createPost, getPost, setup, START, storedCredentials, targetRow } from './workchat-support'

const POST_MESSAGE = /^POST \/api\/chat\.postMessage$/

describe('WORKCHAT_NET reliability', () => {
  it('waits what a 429 asks (Retry-After), retries a 5xx, and publishes each once', async () => {
    const { t, fake, account, advance } = await setup()
    fake.failNext(
      { status: 429, headers: { 'retry-after': '42' }, json: { ok: false, error: 'ratelimited' } },
      POST_MESSAGE,
    )
    const limited = await createPost(t, { caption: 'Limited', accountIds: [account.id] })
    await runDue(t, t.publishQueue)
    const row = await targetRow(t, limited.id)
    expect(row.error).toMatchObject({ code: 'rate_limited' })
    expect(row.dueAt!.getTime() - Date.parse(START)).toBe(42_000)
    fake.failNext({ status: 503, body: 'Service Unavailable' }, POST_MESSAGE)
    advance(42)
    await runDue(t, t.publishQueue)
    expect((await targetRow(t, limited.id)).error).toMatchObject({ code: 'transient' })
    advance(60)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, limited.id)).status).toBe('PUBLISHED')
    expect(fake.channelMessages('C0GENERAL1').map((m) => m.text)).toEqual(['Limited'])
  })

  it('settles internal_error after a write by looking in the channel: absent, so sent once more', async () => {
    const { t, fake, account, advance } = await setup()
    fake.failNextError('internal_error', POST_MESSAGE)
    const p = await createPost(t, { caption: 'Maybe sent', accountIds: [account.id] })
    await runDue(t, t.publishQueue)
    expect((await targetRow(t, p.id)).error).toMatchObject({
      code: 'transient',
      message: /no such post: sending it again/,
    })
    expect(fake.calls('GET', '/api/conversations.history')[0]!.query.get('oldest')).toBe(
      ((Date.parse(START) - 120_000) / 1000).toFixed(6),
    )
    advance(60)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(fake.channelMessages('C0GENERAL1').map((m) => m.text)).toEqual(['Maybe sent'])
  })

  it('finds a head and a reply whose answers were lost (unreadable), and sends neither twice', async () => {
    const { t, fake, account, advance } = await setup()
    fake.fault('POST', '/api/chat.postMessage', { kind: 'malformed' }, { after: true })
    fake.fault('POST', '/api/chat.postMessage', { kind: 'malformed' }, { after: true, skip: 1 })
    const p = await createPost(t, {
      caption: 'Link https://example.com/x',
      accountIds: [account.id],
      threadParts: ['One', 'Two'],
    })
    for (let i = 0; i < 3; i++) {
      await runDue(t, t.publishQueue)
      advance(60)
    }
    const [head] = fake.channelMessages('C0GENERAL1')
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: `C0GENERAL1/${head!.ts}`,
    })
    expect(fake.channelMessages('C0GENERAL1')).toHaveLength(1)
    expect(fake.replies('C0GENERAL1', head!.ts).map((m) => m.text)).toEqual(['One', 'Two'])
    expect(fake.calls('GET', '/api/conversations.replies')).toHaveLength(1)
  })

  it('confirms a claim it lost track of from the channel, and publishes an absent one once', async () => {
    const { t, fake, account, adapter, clock, credentials } = await setup()
    const lose = async (caption: string, send: boolean) => {
      const p = await createPost(t, { caption, accountIds: [account.id] })
      const [d] = t.publishQueue.takeDue(new Date(8.64e15))
      const claimed = (await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60))!
      if (!send) return p
      const content = await buildTargetContent(t.deps.db, claimed.post, account.id, 'WORKCHAT_NET')
      const saved: Record<string, unknown> = {}
      await adapter
        .publish({
          idempotencyKey: d!.targetId,
          accountId: account.id,
          connection: 'BOT_TOKEN',
          credentials,
          content,
          progress: {},
          attempt: 1,
          fetch,
          baseUrl: fake.url,
          now: clock.now(),
          // The process dies after the attempt time is saved and before the message's ts is.
          saveProgress: async (next) => {
            if (next.headTs) throw new Error('lost')
            Object.assign(saved, next)
            await t.deps.db
              .update(targets)
              .set({ progress: { ...saved } })
              .where(eq(targets.id, d!.targetId))
          },
        })
        .catch(() => undefined)
      return p
    }
    const sent = await lose('Sent before the crash', true)
    const never = await lose('Never sent', false)
    clock.set('2026-11-21T10:05:00Z')
    await sweepTargets(t.deps, { workspaceId: t.workspaceId })
    await runDue(t, t.publishQueue)
    const [first, second] = fake.channelMessages('C0GENERAL1')
    expect((await getPost(t, sent.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: `C0GENERAL1/${first!.ts}`,
    })
    expect((await getPost(t, never.id)).status).toBe('PUBLISHED')
    expect([first!.text, second!.text]).toEqual(['Sent before the crash', 'Never sent'])
  })

  it('renews a rotating token that is due and saves the rotated pair; a token without rotation is never renewed', async () => {
    const rotating = await setup({ rotation: true, connection: 'DIRECT_LOGIN', credentials: {} })
    const soon = {
      accessToken: rotating.fake.state.accessToken,
      refreshToken: rotating.fake.state.refreshToken,
      expiresAt: '2026-11-21T11:00:00.000Z',
      botUserId: 'U0BOT0001',
    }
    rotating.fake.state.tokenExpiresAt = Date.parse('2026-11-21T11:00:00.000Z')
    const { realAccount } = await import('../support/fixtures')
    const acc = await realAccount(rotating.t, 'WORKCHAT_NET', 'DIRECT_LOGIN', soon)
    await createPost(rotating.t, { caption: 'Fresh', accountIds: [acc.id] })
    await runDue(rotating.t, rotating.t.publishQueue)
    const form = rotating.fake.calls('POST', '/api/oauth.v2.access')[0]!.form()
    expect([form.get('grant_type'), form.get('refresh_token')]).toEqual(['refresh_token', 'xoxe-1-refresh-first'])
    expect((await storedCredentials(rotating.t, acc.id)).credentials).toMatchObject({
      accessToken: 'xoxe.xoxb-1-renewed-1',
      refreshToken: 'xoxe-1-refresh-1',
      expiresAt: '2026-11-21T22:00:00.000Z',
    })
    expect(rotating.fake.channelMessages('C0GENERAL1').map((m) => m.text)).toEqual(['Fresh'])

    const fixed = await setup()
    fixed.fake.revokeToken()
    const p = await createPost(fixed.t, { caption: 'Revoked', accountIds: [fixed.account.id] })
    await runDue(fixed.t, fixed.t.publishQueue)
    expect((await getPost(fixed.t, p.id)).targets[0].error).toMatchObject({
      code: 'auth_expired',
      message: /reconnect/,
    })
    expect((await storedCredentials(fixed.t, fixed.account.id)).row.status).toBe('EXPIRED')
    expect(fixed.fake.calls('POST', '/api/oauth.v2.access')).toHaveLength(0)
  })

  it('reads reactions and replies as metrics, and deletes the head and its replies', async () => {
    const { t, fake, account, adapter, credentials } = await setup()
    const p = await createPost(t, { caption: 'Counted', accountIds: [account.id], threadParts: ['Reply'] })
    await runDue(t, t.publishQueue)
    const id = (await getPost(t, p.id)).targets[0].platformPostId
    const [head] = fake.channelMessages('C0GENERAL1')
    head!.reactions.push({ name: 'tada', count: 3, users: [] }, { name: 'eyes', count: 2, users: [] })
    const base = { connection: 'BOT_TOKEN', credentials, fetch, baseUrl: fake.url, now: new Date(START) }
    const insights = await adapter.fetchInsights!({
      ...base,
      accountId: account.id,
      posts: [
        { targetId: 'tp', platformPostId: id, publishedAt: new Date(START) },
        { targetId: 'gone', platformPostId: 'C0GENERAL1/1.000001', publishedAt: new Date(START) },
      ],
    })
    expect(insights).toEqual({
      followers: null,
      posts: [
        { targetId: 'tp', likes: 5, comments: 1, shares: null, views: null, saves: null },
        { targetId: 'gone', likes: null, comments: null, shares: null, views: null, saves: null },
      ],
    })
    await adapter.deletePost!({ ...base, platformPostId: id })
    expect(fake.state.messages).toHaveLength(0)
    expect(fake.calls('POST', '/api/chat.delete').map((r) => r.json().ts)).toEqual([expect.any(String), head!.ts])
    await expect(adapter.deletePost!({ ...base, platformPostId: id })).resolves.toBeUndefined()
  })
})
