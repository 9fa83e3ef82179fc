import { describe, expect, it } from 'vitest'
import { account } from '../../support/fixtures'
import { waitForRoomInCurrentMinute } from '../../support/minute'
import { createTestApp, randomIp, type TestApp } from '../../support/test-app'
import { callOf, publishText, sandboxFor, visitor } from '../../networks/support/sandbox-inbox'

async function setUp() {
  const t = await createTestApp()
  const { store, sandbox } = sandboxFor(t)
  const owner = await account(t, 'MICROBLOG_NET', 'acme_news')
  const id = await publishText(sandbox, owner.id, 'MICROBLOG_NET')
  return { t, store, sandbox, owner, post: { id, accountId: owner.id }, path: `/sandbox/posts/${id}` }
}

/** A browser's form post from the page itself. */
function comment(
  t: TestApp,
  path: string,
  fields: Record<string, string>,
  init: { ip?: string; origin?: string } = {},
) {
  return t.app.request(`${path}/comments`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': init.ip ?? t.ip,
      origin: init.origin ?? 'http://localhost',
    },
    body: new URLSearchParams(fields).toString(),
  })
}

const page = async (t: TestApp, path: string) => (await t.app.request(path)).text()

describe('sandbox post page: comments', () => {
  it('shows a form that posts to the page itself, under a policy that allows only that', async () => {
    const { t, path } = await setUp()
    const res = await t.app.request(path)
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self'")
    const html = await res.text()
    expect(html).toContain(`<form method="post" action="${path}/comments">`)
    expect(html).toContain('name="name"')
    expect(html).toContain('name="text"')
    expect(html).toContain('No comments yet.')
  })

  it('takes a comment from anyone and shows it escaped, after a 303 back to the comments', async () => {
    const { t, store, post, path } = await setUp()
    const res = await comment(t, path, {
      name: '<script>alert(1)</script>',
      text: 'Nice <script>steal()</script> & "more"',
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${path}#comments`)
    const html = await page(t, path)
    expect(html).not.toContain('<script>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('Nice &lt;script&gt;steal()&lt;/script&gt; &amp; &quot;more&quot;')
    expect(html).toContain('Comments (1)')
    const [stored] = await store.comments.listForPost(post.id, { since: null, after: null, limit: 10 })
    expect(stored).toMatchObject({
      authorName: '<script>alert(1)</script>',
      fromAccount: false,
      accountId: post.accountId,
    })
  })

  it('refuses an empty or oversized name or text with the page again, keeping what was written (escaped)', async () => {
    const { t, store, post, path } = await setUp()
    const cases: Array<[Record<string, string>, string]> = [
      [{ name: '  ', text: 'hi' }, 'Write your name.'],
      [{ name: 'Ann', text: '' }, 'Write a comment.'],
      [{ name: 'x'.repeat(81), text: 'hi' }, 'The name is 81 characters; at most 80.'],
      [{ name: 'Ann', text: `<b>${'é'.repeat(1998)}` }, 'The comment is 2001 characters; at most 2000.'],
    ]
    for (const [fields, message] of cases) {
      const res = await comment(t, path, fields)
      expect(res.status).toBe(400)
      const html = await res.text()
      expect(html).toContain(message)
      if (fields.text?.startsWith('<b>')) expect(html).toContain('&lt;b&gt;éé')
    }
    expect(await store.comments.listForPost(post.id, { since: null, after: null, limit: 10 })).toEqual([])
    expect((await comment(t, path, { name: 'x'.repeat(80), text: '😀'.repeat(2000) })).status).toBe(303)
  })

  it('refuses a form sent from another site, and answers 404 for an unknown post', async () => {
    const { t, store, post, path } = await setUp()
    const res = await comment(t, path, { name: 'Eve', text: 'csrf' }, { origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('This form was sent from another site.')
    expect(await store.comments.listForPost(post.id, { since: null, after: null, limit: 10 })).toEqual([])
    const unknown = await comment(t, '/sandbox/posts/sbx_nope', { name: 'Ann', text: 'hi' })
    expect(unknown.status).toBe(404)
  })

  it('takes ten comments a minute from one address, then answers 429 with Retry-After', async () => {
    await waitForRoomInCurrentMinute(15_000, { onlyWithRedis: true })
    const { t, path } = await setUp()
    for (let i = 0; i < 10; i++)
      expect((await comment(t, path, { name: 'Ann', text: `comment ${i}` })).status).toBe(303)
    const refused = await comment(t, path, { name: 'Ann', text: 'one too many' })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    const html = await refused.text()
    expect(html).toContain('Too many comments: the limit is 10 per minute.')
    expect(html).toContain('one too many')
    expect((await comment(t, path, { name: 'Bob', text: 'from elsewhere' }, { ip: randomIp() })).status).toBe(303)
    expect(await page(t, path)).toContain('Comments (11)')
  })

  it("shows replies under their comment, the account's marked, and neither hidden nor deleted ones", async () => {
    const { t, store, sandbox, owner, post, path } = await setUp()
    const question = await store.comments.add(visitor(post, 'A question', 1))
    const spam = await store.comments.add(visitor(post, 'Buy now', 2))
    await store.comments.add(visitor(post, 'Under spam', 3, { replyToId: spam.id }))
    const rude = await store.comments.add(visitor(post, 'Rude words', 4))
    const reply = await sandbox.replyToComment!({
      ...callOf(owner.id),
      comment: { externalId: question.id, postExternalId: post.id, parentExternalId: null },
      text: 'Our <answer>',
      idempotencyKey: 'k1',
    })
    await sandbox.hideComment!({
      ...callOf(owner.id),
      comment: { externalId: spam.id, postExternalId: post.id, parentExternalId: null },
      hidden: true,
    })
    await sandbox.deleteComment!({
      ...callOf(owner.id),
      comment: { externalId: rude.id, postExternalId: post.id, parentExternalId: null },
    })
    const html = await page(t, path)
    expect(html).toContain('A question')
    expect(html).not.toContain('Buy now')
    expect(html).not.toContain('Under spam')
    expect(html).not.toContain('Rude words')
    const at = html.indexOf(`<li id="${question.id}"`)
    const answer = html.indexOf(`<li id="${reply.externalId}" class="from-account">`)
    expect(at).toBeGreaterThan(0)
    expect(answer).toBeGreaterThan(at)
    expect(html.slice(answer, answer + 300)).toContain('<b>@acme_news</b> <span class="badge">author</span>')
    expect(html).toContain('Our &lt;answer&gt;')
    expect(html).toContain('Comments (2)')
  })
})
