import { describe, expect, it } from 'vitest'
import { mediaAssets } from '../../../src/db/schema'
import { eq } from 'drizzle-orm'
import { addSandboxAccount } from '../../../src/services/accounts/accounts'
import { collectAnalytics } from '../../../src/services/analytics/collect'
import { getPostMetrics } from '../../../src/services/analytics/post-metrics'
import { getPost } from '../../../src/services/posts/read'
import { createPost } from '../../../src/services/posts/create'
import { runDue } from '../../support/engine'
import { account, fixedClock, media } from '../../support/fixtures'
import { label } from '../../support/groups'
import { mountContentPages, type PagesApp } from '../../support/dashboard-pages'

/** The page's text without tags (what a reader reads). */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')

async function pageText(p: PagesApp, id: string) {
  const res = await p.get(`/posts/${id}`)
  expect(res.status).toBe(200)
  const html = await res.text()
  return { html, text: textOf(html) }
}

const create = (p: PagesApp, input: Record<string, unknown>) =>
  createPost(p.t.deps, p.t.workspaceId, { type: 'IMAGE', mediaIds: [], caption: 'Hello', ...input } as never)

describe('post page wording per state', () => {
  it('a draft says it is not published anywhere and never "published there"', async () => {
    const p = await mountContentPages()
    const pins = await account(p.t, 'TEXTTHREAD_NET', 'threads')
    const post = await create(p, { accountIds: [pins.id], action: 'draft' })
    const { text } = await pageText(p, post.id)
    expect(text).toContain('Draft: not scheduled and not published on any network yet (1 account chosen).')
    expect(text).toContain('Not published: the post is a draft.')
    expect(text).toContain('Nothing of this draft is on any network')
    expect(text).not.toContain('published there')
    expect(text).not.toContain('Remove it from the networks')
  })

  it('a scheduled post says when, in the workspace zone', async () => {
    const clock = fixedClock('2026-11-25T12:00:00Z')
    const p = await mountContentPages({ clock, timezone: 'Europe/Paris' })
    const micro = await account(p.t, 'MICROBLOG_NET', 'alice')
    const post = await create(p, { accountIds: [micro.id], action: 'schedule', scheduledAt: '2026-12-01T08:30:00Z' })
    const { text } = await pageText(p, post.id)
    expect(text).toContain(
      'Scheduled for Tue, 1 Dec 2026, 09:30 (Europe/Paris) on 1 account; nothing is published yet.',
    )
    expect(text).toContain('Goes out Tue, 1 Dec 2026, 09:30 (Europe/Paris).')
    expect(text).toContain('Nothing of this post is on any network yet: deleting it cancels it.')
  })

  it('a publishing post says it is going out; a published one where, with its permalink', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET', 'alice')
    const pro = await account(p.t, 'PROFESSIONAL_NET', 'bob')
    const post = await create(p, { accountIds: [micro.id, pro.id], action: 'now' })
    const going = await pageText(p, post.id)
    expect(going.text).toContain('Going out now to 2 accounts: 0 of 2 published so far.')
    expect(going.text).toContain('Waiting to go out.')
    await runDue(p.t, p.t.publishQueue)
    const done = await pageText(p, post.id)
    expect(done.text).toContain('Published on all 2 accounts.')
    expect(done.text).toContain('alice on Microblog')
    expect(done.text).toContain('bob on Professional')
    const stored = await getPost(p.t.deps.db, p.t.workspaceId, post.id)
    for (const t of stored.targets) expect(done.html).toContain(`<a href="${t.permalink}">`)
  })

  it('a partly failed post names where it failed, with the error, what to do and a retry of that target', async () => {
    const p = await mountContentPages()
    const good = await account(p.t, 'MICROBLOG_NET', 'alice')
    const flaky = await addSandboxAccount(p.t.deps.db, p.t.deps.cipher, {
      workspaceId: p.t.workspaceId,
      platform: 'PROFESSIONAL_NET',
      username: 'flaky',
      failMode: 'once',
    })
    const post = await create(p, { accountIds: [good.id, flaky.id], action: 'now' })
    await runDue(p.t, p.t.publishQueue)
    const { html, text } = await pageText(p, post.id)
    expect(text).toContain('Partly published: failed on flaky on Professional; published on alice on Microblog.')
    expect(text).toContain('Not published: the last attempt failed.')
    expect(text).toContain('The network refused the post as it was sent.')
    const stored = await getPost(p.t.deps.db, p.t.workspaceId, post.id)
    const failed = stored.targets.find((t) => t.status === 'FAILED')!
    expect(html).toContain(`name="targetId" value="${failed.id}"`)
    expect((await p.post(`/posts/${post.id}/retry`, { targetId: failed.id })).status).toBe(303)
    await runDue(p.t, p.t.publishQueue)
    expect((await getPost(p.t.deps.db, p.t.workspaceId, post.id)).status).toBe('PUBLISHED')
  })

  it('shows the media with alt text, each override, the thread parts, the options and the labels', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET', 'alice')
    const pro = await account(p.t, 'PROFESSIONAL_NET', 'bob')
    const image = await media(p.t)
    const launch = await label(p.t, 'Spring launch')
    await p.t.deps.db.update(mediaAssets).set({ altText: 'A red kite over hills' }).where(eq(mediaAssets.id, image))
    const post = await create(p, {
      accountIds: [micro.id, pro.id],
      mediaIds: [image],
      labelIds: [launch.id],
      action: 'draft',
      caption: 'Base words',
      captionOverrides: { PROFESSIONAL_NET: 'Longer professional words' },
      threadParts: ['Second part', 'Third part'],
      linkUrl: 'https://example.com/story',
    })
    const { html, text } = await pageText(p, post.id)
    expect(html).toContain(`<img src="https://media.example.test/${image}" alt="A red kite over hills"`)
    expect(text).toContain('Alt: A red kite over hills')
    expect(text).toMatch(/Professional\s+Longer professional words/)
    expect(html).toMatch(
      /<ol class="post-thread" start="2"><li class="post-caption">Second part<\/li><li[^>]*>Third part/,
    )
    expect(text).toContain('Thread (3 parts)')
    expect(text).toMatch(/Link\s+https:\/\/example.com\/story/)
    expect(text).toMatch(/Labels\s+Spring launch/)
  })

  it('shows the figures once collected, and before that when they will be', async () => {
    const clock = fixedClock('2026-11-25T12:00:00Z')
    const p = await mountContentPages({ clock })
    const micro = await account(p.t, 'MICROBLOG_NET', 'alice')
    const post = await create(p, { accountIds: [micro.id], action: 'now' })
    await runDue(p.t, p.t.publishQueue)
    const before = await pageText(p, post.id)
    expect(before.text).toContain('No figures yet: they are first collected a few minutes after publishing')
    clock.set('2026-11-25T12:05:00Z')
    await collectAnalytics(p.t.deps, { workspaceId: p.t.workspaceId, now: clock.now() })
    const metrics = await getPostMetrics(p.t.deps.db, await getPost(p.t.deps.db, p.t.workspaceId, post.id), clock.now())
    const [m] = [...metrics.values()]
    expect(m!.latest).not.toBeNull()
    const after = await pageText(p, post.id)
    expect(after.text).not.toContain('No figures yet')
    const likes = m!.latest!.figures.likes!
    expect(after.text).toContain(`Likes ${new Intl.NumberFormat('en-GB').format(likes)}`)
    expect(after.text).toContain(
      'Collected Wed, 25 Nov 2026, 12:05 (UTC); next collection from Wed, 25 Nov 2026, 13:05 (UTC).',
    )
  })
})
