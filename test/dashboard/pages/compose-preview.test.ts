import { describe, expect, it } from 'vitest'
import { getPost } from '../../../src/services/posts/read'
import { createPost } from '../../../src/services/posts/create'
import { account } from '../../support/fixtures'
import { mountContentPages, otherWorkspaceAccount, type PagesApp } from '../../support/dashboard-pages'

/** The preview card of one account in a page. */
function card(html: string, accountId: string): string {
  const found = new RegExp(`<article[^>]*data-account="${accountId}"[^>]*>(.*?)</article>`, 's').exec(html)
  if (!found) throw new Error(`no preview card for ${accountId}`)
  return found[1]!
}

function autosave(p: PagesApp, path: string, form: Record<string, string | string[]>) {
  const body = new URLSearchParams()
  for (const [k, v] of Object.entries(form)) for (const x of [v].flat()) body.append(k, x)
  return p.request(path, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': p.csrfToken },
  })
}

describe('composer previews and drafts', () => {
  it('greets a new member with no error, and the first visit stores nothing', async () => {
    const p = await mountContentPages()
    await account(p.t, 'MICROBLOG_NET')
    const html = await (await p.get('/compose')).text()
    expect(html).not.toMatch(/<ul[^>]*class="field-errors"[^>]*><li>/)
    expect(html).not.toContain('Too small')
    expect(html).toContain('Pick one or more accounts to see how the post looks')
    expect(await (await p.t.call('GET', '/v1/posts')).json()).toEqual([])
  })

  it('renders each selected account’s preview without script: overflow marked where over the budget only', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET', 'micro <i>desk</i>')
    const pro = await account(p.t, 'PROFESSIONAL_NET')
    const caption = `${'a'.repeat(280)}<script>tail</script>`
    const res = await p.post('/compose', { accountIds: [micro.id, pro.id], caption, action: 'now' })
    expect(res.status).toBe(422)
    const html = await res.text()
    expect(card(html, micro.id)).toContain(
      '<mark class="overflow" aria-label="will be cut" title="will be cut">&lt;script&gt;tail&lt;/script&gt;</mark>',
    )
    expect(card(html, micro.id)).toContain('micro &lt;i&gt;desk&lt;/i&gt;')
    expect(card(html, pro.id)).not.toContain('<mark')
  })

  it('says "Pick at least one account." beside the accounts when none is picked', async () => {
    const p = await mountContentPages()
    await account(p.t, 'MICROBLOG_NET')
    const html = await (await p.post('/compose', { caption: 'Hello', action: 'draft' })).text()
    expect(html).toMatch(/id="errors-accountIds"[^>]*><li>Pick at least one account.<\/li>/)
  })

  it('autosaves one draft: the first save creates it, later saves update it, a scheduled post is not touched', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const first = await autosave(p, '/compose/autosave', { accountIds: micro.id, caption: 'Draft one' })
    expect(first.status).toBe(201)
    const saved = await first.json()
    expect(saved).toMatchObject({ saved: true, editUrl: p.page(`/posts/${saved.postId}/edit`) })
    expect(saved.autosaveUrl).toBe(p.page(`/posts/${saved.postId}/autosave`))
    const again = await autosave(p, `/posts/${saved.postId}/autosave`, { accountIds: micro.id, caption: 'Draft two' })
    expect(again.status).toBe(200)
    const posts = await (await p.t.call('GET', '/v1/posts')).json()
    expect(posts).toHaveLength(1)
    expect(posts[0]).toMatchObject({ id: saved.postId, status: 'DRAFT', caption: 'Draft two' })

    const year = new Date().getUTCFullYear() + 1
    await p.post(`/posts/${saved.postId}/edit`, {
      accountIds: micro.id,
      caption: 'Scheduled',
      scheduledAt: `${year}-07-01T09:30`,
      action: 'schedule',
    })
    const late = await autosave(p, `/posts/${saved.postId}/autosave`, { accountIds: micro.id, caption: 'Changed' })
    expect(late.status).toBe(409)
    expect((await (await p.t.call('GET', `/v1/posts/${saved.postId}`)).json()).caption).toBe('Scheduled')
  })

  it("does not autosave another workspace's post", async () => {
    const p = await mountContentPages()
    const { other, theirs } = await otherWorkspaceAccount(p.t)
    const post = await createPost(p.t.deps, other.id, {
      type: 'IMAGE',
      accountIds: [theirs.id],
      mediaIds: [],
      action: 'draft',
      caption: 'Theirs',
    })
    const res = await autosave(p, `/posts/${post.id}/autosave`, { accountIds: theirs.id, caption: 'Changed' })
    expect(res.status).toBe(404)
    expect((await getPost(p.t.deps.db, other.id, post.id)).caption).toBe('Theirs')
  })
})
