import { describe, expect, it } from 'vitest'
import { account, media } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const IN_A_DAY = () => new Date(Date.now() + 86_400_000).toISOString()
const IN_TWO_DAYS = () => new Date(Date.now() + 2 * 86_400_000).toISOString()

const paths = (warnings: Array<{ code: string; path?: string }>) => warnings.map((w) => `${w.code} ${w.path}`).sort()

/** A scheduled post on the messaging network (threads) and the professional network (no threads, no comments). */
async function accounts(t: TestApp) {
  return { messaging: await account(t, 'MESSAGING_NET'), professional: await account(t, 'PROFESSIONAL_NET') }
}

describe('warnings on writes', () => {
  it('answers [] for a clean body, on create and on its dry run', async () => {
    const t = await createTestApp()
    const { messaging } = await accounts(t)
    const body = {
      type: 'IMAGE',
      accountIds: [messaging.id],
      mediaIds: [],
      action: 'schedule',
      scheduledAt: IN_A_DAY(),
      caption: 'Hello',
      threadParts: ['and more'],
      recurrence: { frequency: 'weekly', count: 3 },
    }
    const res = await t.call('POST', '/v1/posts', { body })
    expect(res.status).toBe(200)
    expect((await res.json()).warnings).toEqual([])
    expect((await (await t.call('POST', '/v1/posts/validate', { body })).json()).warnings).toEqual([])
  })

  it('names unknown fields, nested ones too, and fields none of the networks uses; the post is still created', async () => {
    const t = await createTestApp()
    const { professional } = await accounts(t)
    const body = {
      type: 'IMAGE',
      accountIds: [professional.id],
      mediaIds: [],
      action: 'draft',
      caption: 'Hello',
      capton: 'Helo',
      recurrence: { frequency: 'weekly', intervall: 2 },
      threadParts: ['a follow-up'],
      firstComment: 'first!',
      captionOverrides: { MICROBLOG_NET: 'short' },
    }
    const res = await t.call('POST', '/v1/posts', { body })
    expect(res.status).toBe(200)
    const post = await res.json()
    expect(post).toMatchObject({ status: 'DRAFT', caption: 'Hello', threadParts: ['a follow-up'] })
    expect(paths(post.warnings)).toEqual([
      'not_applicable captionOverrides.MICROBLOG_NET',
      'not_applicable firstComment',
      'not_applicable threadParts',
      'unknown_field capton',
      'unknown_field recurrence.intervall',
    ])
    expect(post.warnings).toContainEqual({
      code: 'unknown_field',
      path: 'capton',
      message: expect.stringContaining('capton'),
    })
    expect(post.warnings.find((w: { path: string }) => w.path === 'firstComment').message).toContain('PHOTO_NET')
    // The record itself does not carry warnings: they describe the write.
    expect((await (await t.call('GET', `/v1/posts/${post.id}`)).json()).warnings).toBeUndefined()

    // The dry run answers the same warnings for the same body.
    const report = await (await t.call('POST', '/v1/posts/validate', { body })).json()
    expect(report.valid).toBe(true)
    expect(report.warnings).toEqual(post.warnings)
  })

  it('firstComment with the photo network among the targets is no warning', async () => {
    const t = await createTestApp()
    const photo = await account(t, 'PHOTO_NET')
    const { professional } = await accounts(t)
    const res = await t.call('POST', '/v1/posts', {
      body: {
        type: 'IMAGE',
        accountIds: [photo.id, professional.id],
        mediaIds: [await media(t)],
        action: 'draft',
        caption: 'Hello',
        firstComment: 'first!',
      },
    })
    expect(res.status).toBe(200)
    expect((await res.json()).warnings).toEqual([])
  })

  it('an idempotent replay answers the same body, warnings included', async () => {
    const t = await createTestApp()
    const { professional } = await accounts(t)
    const init = {
      body: { type: 'IMAGE', accountIds: [professional.id], mediaIds: [], action: 'draft', caption: 'x', capton: 'y' },
      headers: { 'Idempotency-Key': 'warn-1' },
    }
    const first = await t.call('POST', '/v1/posts', init)
    const again = await t.call('POST', '/v1/posts', init)
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
    const body = await first.json()
    expect(paths(body.warnings)).toEqual(['unknown_field capton'])
    expect(await again.json()).toEqual(body)
  })

  it("PATCH warns about its own unknown fields and the edited post's inapplicable fields", async () => {
    const t = await createTestApp()
    const { messaging, professional } = await accounts(t)
    const created = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [messaging.id], mediaIds: [], action: 'draft', caption: 'x' },
    })
    const { id, warnings } = await created.json()
    expect(warnings).toEqual([])

    const clean = await t.call('PATCH', `/v1/posts/${id}`, { body: { threadParts: ['more'] } })
    expect(clean.status).toBe(200)
    expect((await clean.json()).warnings).toEqual([])

    // Moving it to a network without threads leaves its threadParts with nowhere to go.
    const res = await t.call('PATCH', `/v1/posts/${id}`, {
      body: { accountIds: [professional.id], capton: 'typo', firstComment: 'hi' },
    })
    expect(res.status).toBe(200)
    const post = await res.json()
    expect(post.accountIds).toEqual([professional.id])
    expect(paths(post.warnings)).toEqual([
      'not_applicable firstComment',
      'not_applicable threadParts',
      'unknown_field capton',
    ])
  })

  it('POST /posts/{id}/schedule warns about unknown fields and what the post carries for no network', async () => {
    const t = await createTestApp()
    const { professional } = await accounts(t)
    const created = await t.call('POST', '/v1/posts', {
      body: {
        type: 'IMAGE',
        accountIds: [professional.id],
        mediaIds: [],
        action: 'draft',
        caption: 'x',
        threadParts: ['more'],
      },
    })
    const { id } = await created.json()
    const res = await t.call('POST', `/v1/posts/${id}/schedule`, {
      body: { scheduledAt: IN_TWO_DAYS(), sheduledAt: IN_A_DAY() },
    })
    expect(res.status).toBe(200)
    const post = await res.json()
    expect(post.status).toBe('SCHEDULED')
    expect(paths(post.warnings)).toEqual(['not_applicable threadParts', 'unknown_field sheduledAt'])
  })

  it('names __proto__ and constructor as unknown fields, at the top and nested, instead of failing', async () => {
    const t = await createTestApp()
    const { professional } = await accounts(t)
    // Written as text: JSON.parse makes `__proto__` an own property, as a client's JSON would.
    const body = `{"type":"IMAGE","accountIds":["${professional.id}"],"mediaIds":[],"action":"draft","caption":"Hi",
      "__proto__":"x","constructor":{"a":1},"recurrence":{"frequency":"weekly","count":2,"__proto__":{}}}`
    for (const path of ['/v1/posts/validate', '/v1/posts']) {
      const res = await t.call('POST', path, { body })
      expect(res.status, path).toBe(200)
      expect(paths((await res.json()).warnings), path).toEqual([
        'unknown_field __proto__',
        'unknown_field constructor',
        'unknown_field recurrence.__proto__',
      ])
    }
  })

  it('a refused write answers its error, not warnings', async () => {
    const t = await createTestApp()
    const { professional } = await accounts(t)
    const res = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [professional.id], mediaIds: [], action: 'now', caption: '', capton: 'x' },
    })
    expect(res.status).toBe(422)
    expect((await res.json()).warnings).toBeUndefined()
  })
})
