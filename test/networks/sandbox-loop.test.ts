/**
 * The sandbox loop of issue 37, end to end without any network: a post published through the API,
 * a visitor's comment on its public page (a browser's form post), the inbox sync run as the
 * product runs it (a pass of its scheduled job), the comment listed by GET /v1/inbox/comments, a reply sent
 * through the API, and the reply shown on the page, marked as the account's.
 */
import { describe, expect, it } from 'vitest'
import { syncDueAccounts } from '../../src/services/inbox/sync'
import { runDue } from '../support/engine'
import { account } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

/**
 * One pass of the inbox sync, as the product's job runs it, over this test's workspace only (the
 * test database is shared with other files, whose accounts are due too). The started product runs
 * the job itself in test/e2e/inbox.test.ts.
 */
async function runInboxSync(t: TestApp): Promise<void> {
  await syncDueAccounts(t.deps, { now: t.deps.clock.now(), workspaceId: t.workspaceId })
}

describe('sandbox loop', () => {
  it('publish -> comment on the page -> the inbox lists it -> reply through the API -> the page shows it', async () => {
    const t = await createTestApp()
    const owner = await account(t, 'MICROBLOG_NET', 'loop_news')

    const created = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', mediaIds: [], action: 'now', caption: 'Tell us what you think', accountIds: [owner.id] },
    })
    expect(created.status, JSON.stringify(await created.clone().json())).toBe(200)
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const post = await (await t.call('GET', `/v1/posts/${(await created.json()).id}`)).json()
    const permalink = new URL(post.targets[0].permalink)
    expect(permalink.pathname).toMatch(/^\/sandbox\/posts\/sbx_/)

    const form = await t.app.request(`${permalink.pathname}/comments`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: permalink.origin,
        'x-forwarded-for': t.ip,
      },
      body: new URLSearchParams({ name: 'Ann <b>', text: 'Love it! When is the next one?' }).toString(),
    })
    expect(form.status).toBe(303)

    await runInboxSync(t)
    const listed = await t.call('GET', `/v1/inbox/comments?accountId=${owner.id}`)
    expect(listed.status).toBe(200)
    const comments = (await listed.json()).data as Array<Record<string, any>>
    const comment = comments.find((c) => c.text === 'Love it! When is the next one?')
    expect(comment).toMatchObject({
      kind: 'comment',
      accountId: owner.id,
      platform: 'MICROBLOG_NET',
      postId: post.id,
      author: { name: 'Ann <b>' },
      fromAccount: false,
      state: 'unread',
    })

    const reply = await t.call('POST', `/v1/inbox/comments/${comment!.id}/reply`, {
      body: { text: 'Next Tuesday <3' },
      headers: { 'idempotency-key': 'loop-reply-1' },
    })
    expect(reply.status, JSON.stringify(await reply.clone().json())).toBe(200)
    expect((await reply.json()).status).toBe('SENT')

    const page = await (await t.app.request(permalink.pathname)).text()
    const asked = page.indexOf('Love it! When is the next one?')
    const answered = page.indexOf('Next Tuesday &lt;3')
    expect(asked).toBeGreaterThan(0)
    expect(answered).toBeGreaterThan(asked)
    expect(page.slice(page.lastIndexOf('<li', answered), answered)).toContain(
      '<b>@loop_news</b> <span class="badge">author</span>',
    )
    expect(page).toContain('Ann &lt;b&gt;')

    const after = await (await t.call('GET', `/v1/inbox/comments/${comment!.id}`)).json()
    expect(after.comment.state).toBe('replied')
    expect(after.replies).toEqual([expect.objectContaining({ text: 'Next Tuesday <3', fromAccount: true })])
  })
})
