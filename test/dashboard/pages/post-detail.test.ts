import { describe, expect, it } from 'vitest'
import { addSandboxAccount } from '../../../src/services/accounts/accounts'
import { getPost } from '../../../src/services/posts/read'
import { createPost } from '../../../src/services/posts/create'
import { runDue } from '../../support/engine'
import { account } from '../../support/fixtures'
import { mountContentPages, otherWorkspaceAccount, type PagesApp } from '../../support/dashboard-pages'

async function composeNow(p: PagesApp, accountIds: string[], caption = 'Out now') {
  const res = await p.post('/compose', { accountIds, caption, action: 'now' })
  expect(res.status).toBe(303)
  return res.headers.get('location')!.split('/posts/')[1]!
}

const apiPost = async (p: PagesApp, id: string) => (await p.t.call('GET', `/v1/posts/${id}`)).json()

describe('post detail', () => {
  it('publish now: once the deliveries ran, the page shows each target published with its permalink', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const pro = await account(p.t, 'PROFESSIONAL_NET')
    const id = await composeNow(p, [micro.id, pro.id])
    await runDue(p.t, p.t.publishQueue)
    const stored = await apiPost(p, id)
    expect(stored.status).toBe('PUBLISHED')
    const html = await (await p.get(`/posts/${id}`)).text()
    for (const target of stored.targets) {
      expect(target.permalink).toMatch(/^http/)
      expect(html).toContain(`<a href="${target.permalink}">`)
    }
    expect(html.match(/badge-published/g)?.length).toBeGreaterThanOrEqual(3)
  })

  it('a failing target shows its error and Retry publishes it', async () => {
    const p = await mountContentPages()
    const good = await account(p.t, 'MICROBLOG_NET')
    const flaky = await addSandboxAccount(p.t.deps.db, p.t.deps.cipher, {
      workspaceId: p.t.workspaceId,
      platform: 'PROFESSIONAL_NET',
      username: 'flaky',
      failMode: 'once',
    })
    const id = await composeNow(p, [good.id, flaky.id])
    await runDue(p.t, p.t.publishQueue)
    const before = await (await p.get(`/posts/${id}`)).text()
    expect(before).toContain('fail mode &quot;once&quot;')
    expect(before).toContain(`action="${p.page(`/posts/${id}/retry`)}"`)
    const retried = await p.post(`/posts/${id}/retry`, {})
    expect(retried.status).toBe(303)
    await runDue(p.t, p.t.publishQueue)
    const stored = await apiPost(p, id)
    expect(stored.targets.map((t: { status: string }) => t.status)).toEqual(['PUBLISHED', 'PUBLISHED'])
    const after = await (await p.get(`/posts/${id}`)).text()
    expect(after).not.toContain('Retry failed targets')
  })

  it('says which networks cannot delete, and deleting with fromNetworks removes what it can', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const threads = await account(p.t, 'TEXTTHREAD_NET')
    const id = await composeNow(p, [micro.id, threads.id])
    await runDue(p.t, p.t.publishQueue)
    const html = await (await p.get(`/posts/${id}`)).text()
    expect(html).toContain('name="fromNetworks"')
    expect(html).toMatch(/cannot delete a post through their API; it stays published there: Text threads\./)
    const res = await p.post(`/posts/${id}/delete`, { fromNetworks: 'true' })
    expect(res.status).toBe(200)
    const result = await res.text()
    expect(result).toContain('Post deleted')
    expect(result).toContain('Deleted from MICROBLOG_NET')
    expect(result).toContain('TEXTTHREAD_NET has no way to delete a post')
    expect((await p.t.call('GET', `/v1/posts/${id}`)).status).toBe(404)
  })

  it('a plain delete removes our copy only', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    await p.post('/compose', { accountIds: micro.id, caption: 'Draft', action: 'draft' })
    const [post] = await (await p.t.call('GET', '/v1/posts')).json()
    const res = await p.post(`/posts/${post.id}/delete`, {})
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toContain(p.page('/calendar'))
    expect((await p.t.call('GET', `/v1/posts/${post.id}`)).status).toBe(404)
  })

  it("another workspace's post is not found on every page and action, and stays untouched", async () => {
    const p = await mountContentPages()
    const { other, theirs } = await otherWorkspaceAccount(p.t)
    const post = await createPost(p.t.deps, other.id, {
      type: 'IMAGE',
      accountIds: [theirs.id],
      mediaIds: [],
      action: 'draft',
      caption: 'Private <words>',
    })
    for (const path of [`/posts/${post.id}`, `/posts/${post.id}/edit`]) {
      const res = await p.get(path)
      expect(res.status).toBe(404)
      expect(await res.text()).not.toContain('Private')
    }
    for (const path of ['retry', 'publish', 'delete', 'edit']) {
      expect((await p.post(`/posts/${post.id}/${path}`, { caption: 'x', accountIds: theirs.id })).status).toBe(404)
    }
    // Composing to their account is refused like an unknown account.
    const res = await p.post('/compose', { accountIds: theirs.id, caption: 'Hijack', action: 'draft' })
    expect(res.status).toBe(422)
    expect(await (await p.t.call('GET', '/v1/posts')).json()).toEqual([])
    const still = await getPost(p.t.deps.db, other.id, post.id)
    expect(still).toMatchObject({ caption: 'Private <words>', status: 'DRAFT' })
  })

  it('refuses a form without the CSRF token', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const res = await p.post('/compose', { accountIds: micro.id, caption: 'x', action: 'draft' }, { csrf: null })
    expect(res.status).toBe(403)
    expect(await (await p.t.call('GET', '/v1/posts')).json()).toEqual([])
  })
})
