/**
 * The inbox page and the post page's comments, server-rendered: the list newest first with its
 * filters, a stranger's text escaped, the unread count in the navigation of every page, opening
 * marks read, the actions through the inbox services (CSRF, 404 for another workspace's comment,
 * refusals in words), and the post page's threads.
 */
import { describe, expect, it } from 'vitest'
import type { PlatformId } from '../../../src/domain/vocabulary'
import { account } from '../../support/fixtures'
import { publishedPost, seedComment } from '../../support/inbox-comments'
import { ALL_ALLOWED, SOME_REFUSED } from '../../support/inbox-app'
import { inboxNetwork } from '../../support/inbox-network'
import { mountContentPages, otherWorkspaceAccount, type PagesApp } from '../../support/dashboard-pages'

const XSS = '<img src=x onerror=alert(1)>'
const MINUTE = 60_000

/** The pages with the in-memory inbox network answering the actions. */
async function mount() {
  const network = inboxNetwork()
  const p = await mountContentPages({ networkRegistry: network.registry })
  return { p, network }
}

const publishedTarget = (p: PagesApp, a: { id: string; platform: PlatformId }, caption = 'Doors open at nine.') =>
  publishedPost(p.t, a, caption)

/** The comment as the API answers it. */
const stored = async (p: PagesApp, id: string) =>
  ((await (await p.t.call('GET', `/v1/inbox/comments/${id}`)).json()) as any).comment

/** The page a redirect lands on, with the flash cookie it set (as a browser would send it back). */
async function landing(p: PagesApp, res: Response) {
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!
  return (await p.absolute(res.headers.get('location')!, { headers: { cookie } })).text()
}

const ago = (p: PagesApp, minutes: number) => new Date(p.t.deps.clock.now().getTime() - minutes * MINUTE)

describe('inbox page', () => {
  it('lists comments and mentions newest first, escapes their text, and counts unread in the navigation', async () => {
    const { p } = await mount()
    const micro = await account(p.t, 'MICROBLOG_NET', 'northwind')
    const { target } = await publishedTarget(p, micro)
    await seedComment(p.t, { account: micro, target, text: 'Oldest one', createdAt: ago(p, 30), state: 'read' })
    await seedComment(p.t, { account: micro, target, text: XSS, authorName: '<b>Mallory</b>', createdAt: ago(p, 10) })
    await seedComment(p.t, { account: micro, kind: 'mention', text: 'Newest: @northwind hello', createdAt: ago(p, 1) })

    const html = await (await p.get('/inbox')).text()
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).not.toContain(XSS)
    expect(html).toContain('&lt;b&gt;Mallory&lt;/b&gt;')
    const order = ['Newest: @northwind hello', '&lt;img src=x', 'Oldest one'].map((s) => html.indexOf(s))
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true)
    expect(html).toContain('Mention')
    expect(html).toMatch(/class="nav-count" data-unread="2"/)

    const calendar = await (await p.get('/calendar')).text()
    expect(calendar).toMatch(/class="nav-count" data-unread="2"/)
  })

  it('filters by state, network and kind; an unknown filter value is ignored', async () => {
    const { p } = await mount()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const pro = await account(p.t, 'PROFESSIONAL_NET')
    await seedComment(p.t, { account: micro, text: 'micro unread' })
    await seedComment(p.t, { account: micro, text: 'micro hidden', state: 'hidden' })
    await seedComment(p.t, { account: pro, text: 'pro read', state: 'read' })
    await seedComment(p.t, { account: pro, kind: 'mention', text: 'pro mention' })

    const hidden = await (await p.get('/inbox?state=hidden')).text()
    expect(hidden).toContain('micro hidden')
    expect(hidden).not.toContain('micro unread')
    expect(hidden).toContain('<option value="hidden" selected="">')

    const onPro = await (await p.get('/inbox?platform=PROFESSIONAL_NET')).text()
    expect(onPro).toContain('pro read')
    expect(onPro).not.toContain('micro unread')

    const mentions = await (await p.get(`/inbox?kind=mention&accountId=${pro.id}`)).text()
    expect(mentions).toContain('pro mention')
    expect(mentions).not.toContain('pro read')

    const junk = await (await p.get('/inbox?state=<script>&platform=NOPE')).text()
    expect(junk).toContain('micro unread')
    expect(junk).not.toContain('<script>')
  })

  it('opening a comment marks it read, shows its post and thread, and lowers the count', async () => {
    const { p } = await mount()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const { postId, target } = await publishedTarget(p, micro, 'Our winter blend is back')
    const top = await seedComment(p.t, { account: micro, target, text: 'Is it decaf?', createdAt: ago(p, 20) })
    await seedComment(p.t, {
      account: micro,
      target,
      parentId: top,
      fromAccount: true,
      authorName: 'northwind',
      text: 'Not this one, sorry.',
      createdAt: ago(p, 15),
      state: 'read',
    })
    await seedComment(p.t, { account: micro, target, text: 'Another one', createdAt: ago(p, 5) })

    const res = await p.get(`/inbox/${top}`)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('class="inbox has-open"')
    expect(html).toContain(`href="${p.page(`/posts/${postId}`)}"`)
    expect(html).toContain('Our winter blend is back')
    expect(html).toContain('Not this one, sorry.')
    expect(html).toMatch(/class="nav-count" data-unread="1"/)
    expect(html).toContain('data-count-rule=')
    expect((await stored(p, top)).state).toBe('read')

    const unread = await p.post(`/inbox/${top}/unread`, {})
    expect(unread.status).toBe(303)
    expect((await stored(p, top)).state).toBe('unread')
  })

  it('another workspace’s comment is the 404 page, to read and to act on; a form without the CSRF token is refused', async () => {
    const { p } = await mount()
    const { other, theirs } = await otherWorkspaceAccount(p.t)
    const mine = await account(p.t, 'MICROBLOG_NET')
    const foreign = await seedComment(p.t, { account: theirs, workspaceId: other.id, text: 'not yours' })
    const own = await seedComment(p.t, { account: mine, text: 'yours' })
    expect((await p.get(`/inbox/${foreign}`)).status).toBe(404)
    expect((await p.post(`/inbox/${foreign}/hide`, {})).status).toBe(404)
    expect((await p.post(`/inbox/${foreign}/reply`, { text: 'hi' })).status).toBe(404)
    expect(await (await p.get('/inbox')).text()).not.toContain('not yours')
    expect((await p.post(`/inbox/${own}/hide`, {}, { csrf: null })).status).toBe(403)
    expect((await p.post(`/inbox/${own}/nonsense`, {})).status).toBe(404)
  })

  it('reply (once per form), like, hide, unhide and delete go through the service; gone and rate limits in words', async () => {
    const { p, network } = await mount()
    const a = await account(p.t, ALL_ALLOWED)
    const id = await seedComment(p.t, { account: a, text: 'hello', network })
    const reply = await p.post(`/inbox/${id}/reply`, { text: 'Thanks!', idempotencyKey: 'form-1' })
    expect(reply.status).toBe(303)
    expect(await landing(p, reply)).toContain('Reply sent.')
    await p.post(`/inbox/${id}/reply`, { text: 'Thanks!', idempotencyKey: 'form-1' })
    expect(network.calls.filter((c) => c.method === 'replyToComment')).toHaveLength(1)
    expect((await stored(p, id)).state).toBe('replied')

    expect(await landing(p, await p.post(`/inbox/${id}/like`, {}))).toContain('Comment liked.')
    expect((await stored(p, id)).liked).toBe(true)
    expect(await landing(p, await p.post(`/inbox/${id}/hide`, {}))).toContain('Unhide')
    expect((await stored(p, id)).state).toBe('hidden')
    await p.post(`/inbox/${id}/unhide`, {})
    expect((await stored(p, id)).state).not.toBe('hidden')

    network.failNext('rate_limited', 120)
    expect(await landing(p, await p.post(`/inbox/${id}/hide`, {}))).toContain('Try again in 2 minutes')

    const deleted = await p.post(`/inbox/${id}/delete`, { return: p.page(`/inbox/${id}`) })
    expect(deleted.headers.get('location')).toBe(p.page('/inbox'))
    expect(await landing(p, deleted)).toContain('Comment deleted.')
    expect((await p.get(`/inbox/${id}`)).status).toBe(404)

    const gone = await seedComment(p.t, { account: a, text: 'deleted on the network meanwhile', network })
    network.comments.clear()
    const page = await landing(p, await p.post(`/inbox/${gone}/hide`, {}))
    expect(page).toContain('no longer has this comment')
  })

  it('a reply over the budget, an action the network does not allow: refused in words; a return address elsewhere is ignored', async () => {
    const { p, network } = await mount()
    const a = await account(p.t, ALL_ALLOWED)
    const id = await seedComment(p.t, { account: a, text: 'hello', network })
    const res = await p.post(`/inbox/${id}/reply`, { text: 'x'.repeat(70_000), return: 'https://evil.example/' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(p.page(`/inbox/${id}`))
    expect(await landing(p, res)).toContain('class="problem"')
    expect(network.calls).toHaveLength(0)
    if (SOME_REFUSED) {
      const other = await account(p.t, SOME_REFUSED.p, 'refusing')
      const cid = await seedComment(p.t, { account: other, text: 'hi', network })
      const html = await landing(p, await p.post(`/inbox/${cid}/${SOME_REFUSED.refused}`, {}))
      expect(html).toContain('class="problem"')
      expect(html).toContain(SOME_REFUSED.refused!)
    }
  })
})

describe('post page comments', () => {
  it('shows each published target’s threads with the actions, escaped', async () => {
    const { p } = await mount()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const { postId, target } = await publishedTarget(p, micro)
    const top = await seedComment(p.t, { account: micro, target, text: XSS, createdAt: ago(p, 9) })
    await seedComment(p.t, { account: micro, target, parentId: top, text: 'a reply below', createdAt: ago(p, 3) })
    const html = await (await p.get(`/posts/${postId}`)).text()
    expect(html).toContain('id="post-comments-title"')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).not.toContain(XSS)
    expect(html).toContain('class="comment-replies"')
    expect(html).toContain(`action="${p.page(`/inbox/${top}/reply`)}"`)
    expect(html).toContain(`name="return" value="${p.page(`/posts/${postId}`)}"`)
  })
})
