import { describe, expect, it } from 'vitest'
import { account, fixedClock, media } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'
import { sandboxBoards } from '../../../src/networks/sandbox/boards'

const FUTURE = new Date(Date.now() + 86_400_000).toISOString()

describe('POST /v1/posts', () => {
  it('returns the contract record: every field present, null where unset, one target per distinct account in order', async () => {
    const t = await createTestApp()
    const a = await account(t, 'MICROBLOG_NET')
    const b = await account(t, 'OPENPROTOCOL_NET')
    const res = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [b.id, a.id, b.id], mediaIds: [], action: 'draft', caption: 'Hello' },
    })
    expect(res.status).toBe(200)
    const post = await res.json()
    expect(post).toEqual({
      id: expect.stringMatching(/^post_/),
      status: 'DRAFT',
      source: 'service',
      type: 'IMAGE',
      caption: 'Hello',
      captionOverrides: null,
      accountIds: [b.id, a.id],
      mediaIds: [],
      scheduledAt: null,
      publishedAt: null,
      threadParts: null,
      firstComment: null,
      labels: [],
      replyToMicropostId: null,
      quoteMicropostId: null,
      videoNetOptions: null,
      audio: null,
      pinboardNetBoards: null,
      pinboardNetOptions: null,
      linkUrl: null,
      title: null,
      destinations: null,
      targetOptions: null,
      recurrence: null,
      queued: false,
      version: 1,
      approval: null,
      approvalRequired: false,
      createdBy: { kind: 'token', id: expect.any(String), name: expect.any(String) },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      targets: [
        {
          id: expect.stringMatching(/^tgt_/),
          accountId: b.id,
          platform: 'OPENPROTOCOL_NET',
          status: 'PENDING',
          permalink: null,
          platformPostId: null,
          error: null,
          publishedAt: null,
          attempts: 0,
        },
        {
          id: expect.stringMatching(/^tgt_/),
          accountId: a.id,
          platform: 'MICROBLOG_NET',
          status: 'PENDING',
          permalink: null,
          platformPostId: null,
          error: null,
          publishedAt: null,
          attempts: 0,
        },
      ],
      warnings: [],
    })
    const { warnings: _warnings, ...record } = post
    expect(await (await t.call('GET', `/v1/posts/${post.id}`)).json()).toEqual(record)
  })

  it('stores and returns every body field of the spec', async () => {
    const t = await createTestApp()
    const x = await account(t, 'MICROBLOG_NET')
    const pin = await account(t, 'PINBOARD_NET')
    const image = await media(t, { width: 1000, height: 1500 })
    const body = {
      type: 'IMAGE',
      accountIds: [x.id, pin.id],
      mediaIds: [image],
      action: 'schedule',
      scheduledAt: FUTURE,
      caption: 'Base caption',
      captionOverrides: { MICROBLOG_NET: 'Short for the microblog' },
      threadParts: ['part two', 'part three'],
      replyToMicropostId: 'https://x.com/someone/status/1234567890',
      quoteMicropostId: '987654321',
      pinboardNetBoards: { [pin.id]: sandboxBoards(pin.id)[0]!.id },
      pinboardNetOptions: { title: 'Pin title' },
      linkUrl: 'https://example.com/article',
      recurrence: { frequency: 'weekly', interval: 2, endsAt: null, count: 5 },
    }
    const res = await t.call('POST', '/v1/posts', { body })
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200)
    const post = await res.json()
    const { action: _action, ...stored } = body
    expect(post).toMatchObject({
      ...stored,
      status: 'SCHEDULED',
      scheduledAt: new Date(FUTURE).toISOString(),
      recurrence: { ...body.recurrence, occurrence: 1, parentId: null },
    })
    expect(post.targets.every((t: { status: string }) => t.status === 'PENDING')).toBe(true)
    // The answer is built from the rows as written, not read back: it is what a read then finds.
    const { warnings: _warnings, ...record } = post
    expect(await (await t.call('GET', `/v1/posts/${post.id}`)).json()).toEqual(record)
  })

  it('sets the status each action gives', async () => {
    const t = await createTestApp()
    const a = await account(t, 'MESSAGING_NET')
    const base = { type: 'IMAGE', accountIds: [a.id], mediaIds: [], caption: 'hi' }
    const draft = await (await t.call('POST', '/v1/posts', { body: { ...base, action: 'draft' } })).json()
    const scheduled = await (
      await t.call('POST', '/v1/posts', { body: { ...base, action: 'schedule', scheduledAt: FUTURE } })
    ).json()
    const now = await (await t.call('POST', '/v1/posts', { body: { ...base, action: 'now' } })).json()
    expect([draft.status, scheduled.status, now.status]).toEqual(['DRAFT', 'SCHEDULED', 'PUBLISHING'])
    expect(scheduled.scheduledAt).toBe(new Date(FUTURE).toISOString())
  })

  it('needs a future scheduledAt for action schedule', async () => {
    const t = await createTestApp({ clock: fixedClock('2026-11-21T10:00:00Z') })
    const a = await account(t, 'MESSAGING_NET')
    const base = { type: 'IMAGE', accountIds: [a.id], mediaIds: [], caption: 'hi', action: 'schedule' }
    const missing = await t.call('POST', '/v1/posts', { body: base })
    expect(missing.status).toBe(422)
    expect((await missing.json()).error).toMatchObject({
      code: 'schedule_time_required',
      details: [{ path: 'scheduledAt' }],
    })
    const past = await t.call('POST', '/v1/posts', { body: { ...base, scheduledAt: '2026-11-21T09:59:59Z' } })
    expect(past.status).toBe(422)
    expect((await past.json()).error.code).toBe('schedule_time_in_past')
    expect(await (await t.call('GET', '/v1/posts')).json()).toEqual([])
  })

  it('answers 422 for an account or media id outside the workspace, naming each', async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const mine = await account(t, 'MESSAGING_NET')
    const theirs = await account(other, 'MESSAGING_NET')
    const theirMedia = await media(other)
    const acc = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [mine.id, theirs.id], mediaIds: [], action: 'draft' },
    })
    expect(acc.status).toBe(422)
    expect((await acc.json()).error).toMatchObject({ code: 'account_not_found', details: [{ path: 'accountIds.1' }] })
    const med = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [mine.id], mediaIds: [theirMedia], action: 'draft' },
    })
    expect(med.status).toBe(422)
    expect((await med.json()).error).toMatchObject({ code: 'media_not_found', details: [{ path: 'mediaIds.0' }] })
  })

  it('reports every rule violation at once, each with its field and platform', async () => {
    const t = await createTestApp()
    const x = await account(t, 'MICROBLOG_NET')
    const pin = await account(t, 'PINBOARD_NET')
    const res = await t.call('POST', '/v1/posts', {
      body: {
        type: 'IMAGE',
        accountIds: [x.id, pin.id],
        mediaIds: [],
        action: 'draft',
        caption: 'a'.repeat(281),
        threadParts: Array.from({ length: 30 }, (_, i) => `part ${i}`),
        pinboardNetOptions: { title: 't'.repeat(101) },
        linkUrl: 'ftp://example.com/file',
      },
    })
    expect(res.status).toBe(422)
    const { error } = await res.json()
    const found = error.details.map((d: { code: string; path: string; platform?: string }) =>
      `${d.code} ${d.path} ${d.platform ?? ''}`.trim(),
    )
    expect(found).toEqual(
      expect.arrayContaining([
        'caption_too_long caption MICROBLOG_NET',
        expect.stringMatching(/^thread_too_long threadParts MICROBLOG_NET$/),
        expect.stringMatching(/^pin_title_too_long pinboardNetOptions.title/),
        expect.stringMatching(/^invalid_option linkUrl/),
      ]),
    )
    expect(
      error.details.find(
        (d: { path: string; platform?: string }) => d.path === 'caption' && d.platform === 'MICROBLOG_NET',
      ),
    ).toMatchObject({ limit: 280, actual: 281 })
  })

  it('lets a pinboard draft save without a board but needs one to schedule', async () => {
    const t = await createTestApp()
    const pin = await account(t, 'PINBOARD_NET')
    const image = await media(t)
    const base = { type: 'IMAGE', accountIds: [pin.id], mediaIds: [image], caption: 'pin me' }
    expect((await t.call('POST', '/v1/posts', { body: { ...base, action: 'draft' } })).status).toBe(200)
    const res = await t.call('POST', '/v1/posts', { body: { ...base, action: 'schedule', scheduledAt: FUTURE } })
    expect(res.status).toBe(422)
    expect((await res.json()).error).toMatchObject({
      code: 'invalid_option',
      details: [{ path: `pinboardNetBoards.${pin.id}`, platform: 'PINBOARD_NET' }],
    })
    const ok = await t.call('POST', '/v1/posts', {
      body: {
        ...base,
        action: 'schedule',
        scheduledAt: FUTURE,
        pinboardNetBoards: { [pin.id]: sandboxBoards(pin.id)[0]!.id },
      },
    })
    expect(ok.status).toBe(200)
  })

  it('answers 400 with one detail per malformed field', async () => {
    const t = await createTestApp()
    const res = await t.call('POST', '/v1/posts', { body: { type: 'GIF', accountIds: 'acc_1', action: 'later' } })
    expect(res.status).toBe(400)
    const paths = (await res.json()).error.details.map((d: { path: string }) => d.path).sort()
    expect(paths).toEqual(['accountIds', 'action', 'mediaIds', 'type'])
  })

  it("never shows or touches another workspace's post", async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const a = await account(other, 'MESSAGING_NET')
    const post = await (
      await other.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'draft', caption: 'x' },
      })
    ).json()
    for (const [method, path, body] of [
      ['GET', `/v1/posts/${post.id}`],
      ['PATCH', `/v1/posts/${post.id}`, { caption: 'mine now' }],
      ['DELETE', `/v1/posts/${post.id}`],
      ['POST', `/v1/posts/${post.id}/schedule`, { scheduledAt: FUTURE }],
    ] as const) {
      const res = await t.call(method, path, body ? { body } : {})
      expect(res.status, `${method} ${path}`).toBe(404)
      expect((await res.json()).error.code).toBe('not_found')
    }
    expect((await (await other.call('GET', `/v1/posts/${post.id}`)).json()).caption).toBe('x')
  })
})
