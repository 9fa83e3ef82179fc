import { and, count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { sandboxPosts } from '../../src/db/schema'
import { createDrizzleSandboxStore } from '../../src/db/queries/sandbox-posts'
import { randomBase62 } from '../../src/lib/ids'
import type { PublishInput, PublishMedia, PublishProgress, TargetContent } from '../../src/networks/adapter'
import type { PlatformId } from '../../src/domain/vocabulary'
import { createSandboxAdapter } from '../../src/networks/sandbox/adapter'
import { sandboxBoards } from '../../src/networks/sandbox/boards'
import { decideTarget } from '../../src/domain/publishing/decision'
import { DEFAULT_PUBLISH_POLICY } from '../../src/domain/publishing/policy'
import { account } from '../support/fixtures'
import { testDatabase } from '../support/database'
import { createTestApp } from '../support/test-app'

const { db } = await testDatabase()
const store = createDrizzleSandboxStore(db)
const sandbox = createSandboxAdapter({ store, permalinkBase: 'https://sps.example.test/' })

const photo: PublishMedia = {
  id: 'med_photo',
  type: 'IMAGE',
  url: 'https://media.example.test/photo.jpg',
  mimeType: 'image/jpeg',
  sizeBytes: 500_000,
  width: 1080,
  height: 1350,
  durationSec: null,
  altText: null,
}

/** A target's publish input on a fresh account; `saved` records every progress the adapter saves. */
function target(platform: PlatformId, content: Partial<TargetContent> = {}, input: Partial<PublishInput> = {}) {
  const saved: PublishProgress[] = []
  const publishInput: PublishInput = {
    idempotencyKey: `tgt_${randomBase62(12)}`,
    accountId: `acc_${randomBase62(12)}`,
    connection: 'SANDBOX',
    credentials: { failMode: 'never' },
    content: {
      platform,
      type: 'IMAGE',
      text: 'Hello from the sandbox',
      media: [],
      threadParts: [],
      firstComment: null,
      replyToMicropostId: null,
      quoteMicropostId: null,
      videoNetOptions: null,
      audio: null,
      pinboardBoardId: null,
      pinTitle: null,
      linkUrl: null,
      title: null,
      destinationId: null,
      targetOptions: {},
      ...content,
    },
    progress: {},
    saveProgress: async (progress) => {
      saved.push(structuredClone(progress))
    },
    attempt: 1,
    fetch,
    baseUrl: '',
    now: new Date(),
    ...input,
  }
  return { input: publishInput, saved }
}

async function rowsOf(accountId: string) {
  const [row] = await db.select({ n: count() }).from(sandboxPosts).where(eq(sandboxPosts.accountId, accountId))
  return row?.n ?? 0
}

function published(result: Awaited<ReturnType<typeof sandbox.publish>>) {
  if (result.status !== 'published') throw new Error(`expected published, got ${JSON.stringify(result)}`)
  return result
}

describe('sandbox network: publish', () => {
  it('posts the head, then each thread part as a reply to the one before, saving progress after each', async () => {
    const { input, saved } = target('MICROBLOG_NET', { threadParts: ['part one', 'part two'] })
    const result = published(await sandbox.publish(input))
    const headId = result.platformPostId
    expect(result.permalink).toBe(`https://sps.example.test/sandbox/posts/${headId}`)

    const head = await store.get(headId)
    expect(head).toMatchObject({
      kind: 'post',
      text: 'Hello from the sandbox',
      replyToId: null,
      platform: 'MICROBLOG_NET',
    })
    const [p0, p1] = saved.at(-1)?.partIds ?? []
    expect(await store.get(p0!)).toMatchObject({ kind: 'part', text: 'part one', replyToId: headId })
    expect(await store.get(p1!)).toMatchObject({ kind: 'part', text: 'part two', replyToId: p0 })
    expect(saved.map((p) => [p.headId, p.partIds?.length ?? 0])).toEqual([
      [headId, 0],
      [headId, 1],
      [headId, 2],
    ])
    expect(saved[0]?.headPermalink).toBe(result.permalink)
  })

  it("posts the photo network's first comment under the head, never on a story or elsewhere", async () => {
    const { input, saved } = target('PHOTO_NET', { media: [photo], firstComment: 'First!' })
    const headId = published(await sandbox.publish(input)).platformPostId
    const replies = await store.replies(headId)
    expect(replies).toMatchObject([{ kind: 'comment', text: 'First!' }])
    expect(saved.at(-1)?.firstComment).toBe('posted')
    expect(await store.get(headId)).toMatchObject({
      media: [{ url: photo.url, type: 'IMAGE' }],
      options: { format: 'IMAGE' },
    })

    const story = target('PHOTO_NET', { type: 'STORY', media: [photo], firstComment: 'First!' })
    expect(published(await sandbox.publish(story.input)).warnings).toBeUndefined()
    expect(await rowsOf(story.input.accountId)).toBe(1)
  })

  it('makes a post exactly once per idempotency key, parts included', async () => {
    const { input } = target('MICROBLOG_NET', { threadParts: ['a', 'b'] })
    const first = published(await sandbox.publish(input))
    const again = published(await sandbox.publish({ ...input, progress: {}, attempt: 2 }))
    expect(again.platformPostId).toBe(first.platformPostId)
    expect(await rowsOf(input.accountId)).toBe(3)
  })

  it('resumes after the parts that went out, never posting one twice', async () => {
    const { input, saved } = target('FEDERATED_NET', { threadParts: ['one', 'two', 'three'] })
    const crash = async (progress: PublishProgress) => {
      saved.push(structuredClone(progress))
      if (progress.partIds?.length === 1) throw new Error('worker died')
    }
    await expect(sandbox.publish({ ...input, saveProgress: crash })).rejects.toThrow('worker died')
    const resumeFrom = saved.at(-1)!
    expect(resumeFrom.partIds).toHaveLength(1)

    const result = published(await sandbox.publish({ ...input, progress: resumeFrom, attempt: 2 }))
    expect(result.platformPostId).toBe(resumeFrom.headId)
    const final = saved.at(-1)!
    expect(final.partIds).toHaveLength(3)
    expect(final.partIds?.[0]).toBe(resumeFrom.partIds?.[0])
    expect(await rowsOf(input.accountId)).toBe(4)
    const [row] = await db
      .select({ n: count() })
      .from(sandboxPosts)
      .where(and(eq(sandboxPosts.accountId, input.accountId), eq(sandboxPosts.text, 'one')))
    expect(row?.n).toBe(1)
  })

  it("applies the account's fail mode by attempt", async () => {
    const once = target('MICROBLOG_NET', {}, { credentials: { failMode: 'once' } })
    const refused = await sandbox.publish(once.input)
    expect(refused).toMatchObject({ status: 'failed', kind: 'rejected', message: expect.stringContaining('retry') })
    expect(await store.findByKey(once.input.accountId, once.input.idempotencyKey)).toBeNull()
    // The target error promises a retry works, and its flag says so too.
    const decided = decideTarget({
      answer: refused,
      platform: 'MICROBLOG_NET',
      attempts: 1,
      progress: {},
      now: new Date(),
      policy: DEFAULT_PUBLISH_POLICY,
    })
    expect(decided.change).toMatchObject({ status: 'FAILED', error: { code: 'rejected', retryable: true } })
    expect(await sandbox.publish({ ...once.input, attempt: 2 })).toMatchObject({ status: 'published' })

    const transient = target('MICROBLOG_NET', {}, { credentials: { failMode: 'transient' } })
    expect(await sandbox.publish(transient.input)).toMatchObject({
      status: 'failed',
      kind: 'transient',
      retryAfterSec: 1,
    })
    expect(await sandbox.publish({ ...transient.input, attempt: 2 })).toMatchObject({ status: 'published' })

    const always = target('MICROBLOG_NET', {}, { credentials: { failMode: 'always' } })
    for (const attempt of [1, 2, 3]) {
      expect(await sandbox.publish({ ...always.input, attempt })).toMatchObject({ status: 'failed', kind: 'rejected' })
    }
    expect(await rowsOf(always.input.accountId)).toBe(0)
  })

  it("checks the platform's rules again, with the validator's counting", async () => {
    const long = target('PHOTO_NET', { media: [photo], text: 'x'.repeat(2201) })
    const result = await sandbox.publish(long.input)
    expect(result).toMatchObject({ status: 'failed', kind: 'rejected' })
    expect(result.status === 'failed' && result.message).toContain('2200')
    expect(await rowsOf(long.input.accountId)).toBe(0)

    // 280 weighted units: 140 CJK characters count 2 each on the microblog network.
    expect(await sandbox.publish(target('MICROBLOG_NET', { text: '字'.repeat(140) }).input)).toMatchObject({
      status: 'published',
    })
    expect(await sandbox.publish(target('MICROBLOG_NET', { text: '字'.repeat(141) }).input)).toMatchObject({
      status: 'failed',
      kind: 'rejected',
    })
    // A media-only network without media has nothing to publish.
    expect(await sandbox.publish(target('PHOTO_NET').input)).toMatchObject({ status: 'failed', kind: 'rejected' })
  })

  it('rejects a pin without a board, or with a board the account does not have', async () => {
    const none = target('PINBOARD_NET', { media: [photo] })
    const result = await sandbox.publish(none.input)
    expect(result).toMatchObject({ status: 'failed', kind: 'rejected' })
    expect(result.status === 'failed' && result.message).toBe(
      `no board: pick one from GET /v1/accounts/${none.input.accountId}/boards.`,
    )

    const unknown = target('PINBOARD_NET', { media: [photo], pinboardBoardId: '123' })
    expect(await sandbox.publish(unknown.input)).toMatchObject({ status: 'failed', kind: 'rejected' })

    const { input } = target('PINBOARD_NET', {
      media: [photo],
      text: 'Lemon tart, the easy way\nStep one...',
      linkUrl: 'https://example.test/tart',
    })
    const board = sandboxBoards(input.accountId)[1]!
    const headId = published(
      await sandbox.publish({ ...input, content: { ...input.content, pinboardBoardId: board.id } }),
    ).platformPostId
    expect((await store.get(headId))?.options).toEqual({
      format: 'IMAGE',
      title: 'Lemon tart, the easy way',
      board: { id: board.id, name: 'Recipes' },
      linkUrl: 'https://example.test/tart',
    })

    // A title derived from a long first line is shortened at a whole word, not refused.
    const long = { ...input.content, pinboardBoardId: board.id, pinTitle: 'word '.repeat(30).trim() }
    const pin = published(
      await sandbox.publish({ ...input, idempotencyKey: `${input.idempotencyKey}-2`, content: long }),
    )
    expect((await store.get(pin.platformPostId))?.options.title).toBe('word '.repeat(20).trim())
  })

  it('refuses a first comment starting with REFUSE as a warning, not a failure', async () => {
    const { input, saved } = target('PHOTO_NET', { media: [photo], firstComment: 'REFUSE this one' })
    const result = published(await sandbox.publish(input))
    expect(result.warnings).toHaveLength(1)
    expect(result.warnings?.[0]).toContain('refused the first comment')
    expect(saved.at(-1)?.firstComment).toBe('refused')
    expect(await store.replies(result.platformPostId)).toEqual([])
  })
})

describe('sandbox network: status, delete, boards, insights', () => {
  it('confirms an unconfirmed publish by its idempotency key, or reports it absent', async () => {
    const { input } = target('MICROBLOG_NET')
    const made = published(await sandbox.publish(input))
    expect(await sandbox.checkStatus!({ ...input, unconfirmed: true })).toEqual({
      status: 'published',
      platformPostId: made.platformPostId,
      permalink: made.permalink,
    })
    expect(await sandbox.checkStatus!({ ...input, idempotencyKey: 'tgt_never_published', unconfirmed: true })).toEqual({
      status: 'absent',
    })
  })

  it('deletes only where the network has a delete endpoint', async () => {
    const { input } = target('MICROBLOG_NET')
    const made = published(await sandbox.publish(input))
    const microblog = sandbox.forPlatform('MICROBLOG_NET')
    await microblog.deletePost!({
      connection: 'SANDBOX',
      credentials: {},
      platformPostId: made.platformPostId,
      fetch,
      baseUrl: '',
      now: new Date(),
    })
    expect(await store.get(made.platformPostId)).toBeNull()
    expect(sandbox.forPlatform('PHOTO_NET').deletePost).toBeUndefined()
    expect(sandbox.forPlatform('MICROBLOG_NET').listBoards).toBeUndefined()
  })

  it('lists three stable boards per pinboard account', async () => {
    const boards = await sandbox.forPlatform('PINBOARD_NET').listBoards!({
      accountId: 'acc_boards',
      connection: 'SANDBOX',
      credentials: {},
      fetch,
      baseUrl: '',
      now: new Date(),
    })
    expect(boards.map((b) => [b.name, b.privacy])).toEqual([
      ['Inspiration', 'PUBLIC'],
      ['Recipes', 'PUBLIC'],
      ['Travel', 'SECRET'],
    ])
    expect(boards).toEqual(sandboxBoards('acc_boards'))
    expect(new Set(boards.map((b) => b.id)).size).toBe(3)
    expect(sandboxBoards('acc_other').map((b) => b.id)).not.toEqual(boards.map((b) => b.id))
  })

  const insightsInput = (accountId: string, now: string, posts: Array<[string, string]> = [['tgt_1', 'sbx_1']]) => ({
    accountId,
    connection: 'SANDBOX',
    credentials: {},
    posts: posts.map(([targetId, platformPostId]) => ({
      targetId,
      platformPostId,
      publishedAt: new Date('2026-03-04T09:00:00Z'),
    })),
    fetch,
    baseUrl: '',
    now: new Date(now),
  })

  it('reports deterministic insights: the same figures for the same input, followers growing day to day', async () => {
    const microblog = sandbox.forPlatform('MICROBLOG_NET')
    const a = await microblog.fetchInsights!(insightsInput('acc_insights', '2026-03-10T12:00:00Z'))
    const b = await microblog.fetchInsights!(insightsInput('acc_insights', '2026-03-10T12:00:00Z'))
    expect(a).toEqual(b)
    expect(a.followers).toBeGreaterThan(0)
    expect(a.posts[0]).toMatchObject({ targetId: 'tgt_1' })
    for (const metric of ['likes', 'comments', 'shares', 'views', 'saves'] as const)
      expect(typeof a.posts[0]?.[metric]).toBe('number')

    const days = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        microblog.fetchInsights!(insightsInput('acc_insights', new Date(Date.UTC(2026, 2, 1 + i)).toISOString(), [])),
      ),
    )
    const followers = days.map((d) => d.followers ?? 0)
    followers.slice(1).forEach((n, i) => expect(n).toBeGreaterThanOrEqual(followers[i]!))
    expect(followers.at(-1)!).toBeGreaterThan(followers[0]!)
  })

  it('makes the weekday and hour of a post matter, so best times can be found', async () => {
    const microblog = sandbox.forPlatform('MICROBLOG_NET')
    const at = (iso: string) => ({
      ...insightsInput('acc_times', '2026-04-30T00:00:00Z'),
      posts: [{ targetId: iso, platformPostId: `sbx_${iso}`, publishedAt: new Date(iso) }],
    })
    const wednesdayMorning = await microblog.fetchInsights!(at('2026-03-04T09:00:00Z'))
    const sundayNight = await microblog.fetchInsights!(at('2026-03-08T03:00:00Z'))
    expect(wednesdayMorning.posts[0]!.views!).toBeGreaterThan(5 * sundayNight.posts[0]!.views!)
  })

  it('reports null where the real network exposes no insights', async () => {
    for (const platform of ['PROFESSIONAL_NET', 'TEXTTHREAD_NET', 'CHAT_NET', 'SHORTVIDEO_NET'] as const) {
      const insights = await sandbox.forPlatform(platform).fetchInsights!(
        insightsInput('acc_quiet', '2026-03-10T12:00:00Z'),
      )
      expect(insights).toEqual({
        followers: null,
        posts: [
          {
            targetId: 'tgt_1',
            likes: null,
            comments: null,
            shares: null,
            views: null,
            saves: null,
            clicks: null,
            impressions: null,
            reach: null,
          },
        ],
      })
    }
    // The pinboard network reports views and saves only.
    const pinboard = await sandbox.forPlatform('PINBOARD_NET').fetchInsights!(
      insightsInput('acc_pins', '2026-03-10T12:00:00Z'),
    )
    expect(pinboard.posts[0]).toMatchObject({ likes: null, comments: null, shares: null })
    expect(typeof pinboard.posts[0]?.views).toBe('number')
  })
})

describe('sandbox permalink page', () => {
  it('shows the post, escaped, with its thread in order, without a token', async () => {
    const t = await createTestApp()
    const text = '<script>alert("x")</script> & more'
    const { input } = target('MICROBLOG_NET', {
      text,
      threadParts: ['second <b>part</b>', 'third part'],
      linkUrl: null,
    })
    const made = published(await sandbox.publish(input))
    const res = await t.app.request(new URL(made.permalink).pathname)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const page = await res.text()
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more')
    expect(page).not.toContain('<script>')
    expect(page).toContain('MICROBLOG_NET')
    expect(page).toContain(input.accountId)
    const second = page.indexOf('second &lt;b&gt;part&lt;/b&gt;')
    expect(second).toBeGreaterThan(0)
    expect(page.indexOf('third part')).toBeGreaterThan(second)
  })

  it('shows media, the first comment and the options of a post', async () => {
    const t = await createTestApp()
    const { input } = target('PHOTO_NET', { media: [photo], firstComment: 'Link in bio' })
    const page = await (await t.app.request(new URL(published(await sandbox.publish(input)).permalink).pathname)).text()
    expect(page).toContain(`<img src="${photo.url}"`)
    expect(page).toContain('Link in bio')
    expect(page).toContain('Format')
  })

  it("names the account's username and shows no format for a text-only post", async () => {
    const t = await createTestApp()
    const owner = await account(t, 'MICROBLOG_NET', 'acme_news')
    const { input } = target('MICROBLOG_NET', { text: 'Just words' }, { accountId: owner.id })
    const page = await (await t.app.request(new URL(published(await sandbox.publish(input)).permalink).pathname)).text()
    expect(page).toContain('@acme_news')
    expect(page).toContain(owner.id)
    expect(page).not.toContain('Format')
    expect(page).not.toContain('IMAGE')
  })

  it("answers an unknown id with the contract's 404", async () => {
    const t = await createTestApp()
    const res = await t.app.request('/sandbox/posts/sbx_nope')
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ error: { code: 'not_found' } })
  })
})
