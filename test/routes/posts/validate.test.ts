import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { idempotencyKeys, posts, targets } from '../../../src/db/schema'
import { account, media } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const IN_A_DAY = () => new Date(Date.now() + 86_400_000).toISOString()

interface Issue {
  code: string
  path: string
  message: string
  platform?: string
  accountId?: string
}

/** Every issue of a dry run, once each (a platform's issue is repeated on each of its targets). */
function allIssues(report: { errors: Issue[]; targets: Array<{ errors: Issue[] }> }): Issue[] {
  const seen = new Map<string, Issue>()
  for (const issue of [...report.errors, ...report.targets.flatMap((t) => t.errors)]) {
    seen.set(JSON.stringify(Object.entries(issue).sort()), issue)
  }
  return sorted([...seen.values()])
}

const sorted = (issues: Issue[]) =>
  [...issues].sort((a, b) =>
    `${a.path}|${a.platform}|${a.message}`.localeCompare(`${b.path}|${b.platform}|${b.message}`),
  )

async function rowCounts(t: TestApp) {
  const [p] = await t.deps.db.select({ n: count() }).from(posts).where(eq(posts.workspaceId, t.workspaceId))
  const [g] = await t.deps.db.select({ n: count() }).from(targets).where(eq(targets.workspaceId, t.workspaceId))
  const [k] = await t.deps.db
    .select({ n: count() })
    .from(idempotencyKeys)
    .where(eq(idempotencyKeys.workspaceId, t.workspaceId))
  const usage = (await (await t.call('GET', '/v1/me')).json()).usage
  return { posts: p!.n, targets: g!.n, idempotencyKeys: k!.n, usage }
}

describe('POST /v1/posts/validate', () => {
  it("shows each target's caption, its length as that network counts it, its budget and its format after fallback", async () => {
    const t = await createTestApp()
    const micro = await account(t, 'MICROBLOG_NET')
    const photo = await account(t, 'PHOTO_NET')
    const messaging = await account(t, 'MESSAGING_NET')
    const threads = await account(t, 'TEXTTHREAD_NET')
    const images = [await media(t), await media(t)]
    // 'Café ' 5 code points, the emoji, a space, a 34-character link.
    const caption = 'Café 👋 https://example.com/some/long/path'
    const res = await t.call('POST', '/v1/posts/validate', {
      body: {
        type: 'CAROUSEL',
        accountIds: [micro.id, photo.id, messaging.id, threads.id],
        mediaIds: images,
        action: 'draft',
        caption,
        captionOverrides: { PHOTO_NET: 'Photo caption 📸' },
      },
    })
    expect(res.status).toBe(200)
    const report = await res.json()
    expect(report).toEqual({
      valid: true,
      errors: [],
      warnings: [],
      targets: [
        // Weighted: 5 + emoji 2 + space 1 + any link 23; no carousel there, so its default format.
        target(micro.id, 'MICROBLOG_NET', caption, 31, 280, 'IMAGE'),
        // Code points, the override.
        target(photo.id, 'PHOTO_NET', 'Photo caption 📸', 15, 2200, 'CAROUSEL'),
        // UTF-16 units (the emoji is 2), under the budget of a post with images.
        target(messaging.id, 'MESSAGING_NET', caption, 42, 1024, 'IMAGE'),
        // Code points, but the emoji counts its 4 UTF-8 bytes.
        target(threads.id, 'TEXTTHREAD_NET', caption, 44, 500, 'CAROUSEL'),
      ],
    })
  })

  it('reports, in the body, exactly the errors create answers in its 422, each on the target it concerns', async () => {
    const t = await createTestApp()
    const micro = await account(t, 'MICROBLOG_NET')
    const threads = await account(t, 'TEXTTHREAD_NET')
    const pin = await account(t, 'PINBOARD_NET')
    const body = {
      type: 'IMAGE',
      accountIds: [micro.id, threads.id, pin.id],
      mediaIds: [],
      action: 'schedule',
      scheduledAt: IN_A_DAY(),
      caption: 'x'.repeat(300),
      threadParts: ['y'.repeat(600)],
      videoNetOptions: { acc_nobody: { privacyLevel: 'SELF_ONLY' } },
    }
    const created = await t.call('POST', '/v1/posts', { body })
    expect(created.status).toBe(422)
    const { details } = (await created.json()).error
    expect(details.length).toBeGreaterThan(3)

    const res = await t.call('POST', '/v1/posts/validate', { body })
    expect(res.status).toBe(200)
    const report = await res.json()
    expect(report.valid).toBe(false)
    expect(allIssues(report)).toEqual(sorted(details))
    const [microTarget, threadsTarget, pinTarget] = report.targets
    expect(microTarget.errors).toContainEqual(expect.objectContaining({ code: 'caption_too_long', path: 'caption' }))
    expect(microTarget.captionLength).toBe(300)
    expect(threadsTarget.errors.map((e: Issue) => e.path)).not.toContain('caption')
    expect(pinTarget.errors).toContainEqual(
      expect.objectContaining({ path: `pinboardNetBoards.${pin.id}`, accountId: pin.id }),
    )
    // An entry for an account that is none of the targets belongs to the post.
    expect(report.errors).toContainEqual(expect.objectContaining({ path: 'videoNetOptions.acc_nobody' }))
  })

  it("runs create's later steps too: a time in the past is the post's error, as create says it", async () => {
    const t = await createTestApp()
    const a = await account(t, 'MESSAGING_NET')
    const body = {
      type: 'IMAGE',
      accountIds: [a.id],
      mediaIds: [],
      action: 'schedule',
      scheduledAt: '2020-01-01T00:00:00Z',
      caption: 'hello',
    }
    const created = await t.call('POST', '/v1/posts', { body })
    expect(created.status).toBe(422)
    const error = (await created.json()).error
    const report = await (await t.call('POST', '/v1/posts/validate', { body })).json()
    expect(report).toMatchObject({
      valid: false,
      errors: [{ code: 'schedule_time_in_past', path: 'scheduledAt', message: error.message }],
    })
    expect(report.targets).toEqual([expect.objectContaining({ accountId: a.id, errors: [] })])
  })

  it('reports a label not in the workspace as create refuses it: 422 `label_not_found` naming the id', async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const a = await account(t, 'MESSAGING_NET')
    const theirs = await (await other.call('POST', '/v1/labels', { body: { name: 'Theirs' } })).json()
    const body = {
      type: 'IMAGE',
      accountIds: [a.id],
      mediaIds: [],
      action: 'draft',
      caption: 'hi',
      labelIds: [theirs.id],
    }
    const created = await t.call('POST', '/v1/posts', { body })
    expect(created.status).toBe(422)
    const error = (await created.json()).error
    expect(error.code).toBe('label_not_found')
    const report = await (await t.call('POST', '/v1/posts/validate', { body })).json()
    expect(report).toMatchObject({
      valid: false,
      errors: [{ code: 'label_not_found', path: 'labelIds.0', message: error.details[0].message }],
    })
    expect(JSON.stringify(report)).not.toContain('Theirs')
  })

  it('writes nothing: no post, no target, no idempotency record, no change to the month count', async () => {
    const t = await createTestApp()
    const a = await account(t, 'MESSAGING_NET')
    const body = { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'now', caption: 'hello' }
    const before = await rowCounts(t)
    const res = await t.call('POST', '/v1/posts/validate', { body, headers: { 'Idempotency-Key': 'dry-run-1' } })
    expect(res.status).toBe(200)
    expect((await res.json()).valid).toBe(true)
    expect(await rowCounts(t)).toEqual(before)
    expect(t.publishQueue.deliveries).toEqual([])
    // The same key still starts a real create afterwards (the dry run did not take it).
    const created = await t.call('POST', '/v1/posts', { body, headers: { 'Idempotency-Key': 'dry-run-1' } })
    expect(created.status).toBe(200)
    expect(created.headers.get('Idempotent-Replayed')).toBeNull()
    expect((await rowCounts(t)).posts).toBe(before.posts + 1)
  })

  it("treats another workspace's account as create does: not found, and nothing about it", async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const mine = await account(t, 'MESSAGING_NET')
    const theirs = await account(other, 'MICROBLOG_NET')
    const body = { type: 'IMAGE', accountIds: [mine.id, theirs.id], mediaIds: [], action: 'draft', caption: 'hi' }
    const created = await t.call('POST', '/v1/posts', { body })
    expect(created.status).toBe(422)
    const error = (await created.json()).error
    const report = await (await t.call('POST', '/v1/posts/validate', { body })).json()
    expect(report).toEqual({
      valid: false,
      targets: [],
      errors: [{ code: 'account_not_found', path: 'accountIds.1', message: error.details[0].message }],
      warnings: [],
    })
    expect(JSON.stringify(report)).not.toContain('MICROBLOG_NET')
    expect(error).toMatchObject({ code: 'account_not_found', details: [{ path: 'accountIds.1' }] })
  })

  it('still answers 400 to a body the schema refuses', async () => {
    const t = await createTestApp()
    const res = await t.call('POST', '/v1/posts/validate', { body: { type: 'IMAGE', accountIds: [], action: 'x' } })
    expect(res.status).toBe(400)
    expect((await res.json()).error.code).toBe('invalid_request')
  })
})

function target(accountId: string, platform: string, caption: string, length: number, limit: number, format: string) {
  return {
    accountId,
    platform,
    caption,
    captionLength: length,
    captionLimit: limit,
    format,
    errors: [],
    warnings: [],
  }
}
