/**
 * The inbox of the started product, offline: a post published now to a SANDBOX account, a stranger's
 * comment posted on its public page as a browser form would, the inbox listing it after the sandbox
 * sync (every few seconds under `npm start`), a reply sent through the API, and the reply on the page.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { apiClient, clientAddress } from './support/product'

const product = inject('product')
const api = apiClient(product.baseUrl, product.token!)
let microblog: string

beforeAll(async () => {
  const listed = await api('GET', '/v1/accounts')
  expect(listed.status).toBe(200)
  microblog = listed.body.find((a: { platform: string }) => a.platform === 'MICROBLOG_NET').id
})

/** A visitor's comment on a sandbox post page: the page's own form, from the page's origin. */
async function commentOnPage(permalink: string, fields: { name: string; text: string }): Promise<Response> {
  return fetch(`${permalink}/comments`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: new URL(permalink).origin,
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': clientAddress(),
    },
    body: new URLSearchParams(fields).toString(),
  })
}

describe('npm start: publish, a comment on the page, the inbox, a reply', () => {
  it('lists the page comment in the inbox and shows the reply sent through the API on the page', async () => {
    const created = await api('POST', '/v1/posts', {
      type: 'IMAGE',
      accountIds: [microblog],
      mediaIds: [],
      action: 'now',
      caption: 'Ask me anything about the harbour tour',
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const postId = created.body.id
    await expect
      .poll(async () => (await api('GET', `/v1/posts/${postId}`)).body.status, { timeout: 30_000, interval: 200 })
      .toBe('PUBLISHED')
    const permalink: string = (await api('GET', `/v1/posts/${postId}`)).body.targets[0].permalink

    const text = 'Is the <b>night</b> tour on Sundays?'
    const posted = await commentOnPage(permalink, { name: 'Visitor <i>', text })
    expect(posted.status).toBe(303)

    // The sandbox sync of `npm start` runs every few seconds: the comment arrives on its own.
    await expect
      .poll(async () => (await api('GET', `/v1/inbox/comments?postId=${postId}`)).body.data?.length ?? 0, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(1)
    const [comment] = (await api('GET', `/v1/inbox/comments?postId=${postId}`)).body.data
    expect(comment).toMatchObject({ text, state: 'unread', platform: 'MICROBLOG_NET', author: { name: 'Visitor <i>' } })
    expect((await api('GET', '/v1/inbox/unread-count')).body.unread).toBeGreaterThanOrEqual(1)

    const reply = (key: string) =>
      fetch(`${product.baseUrl}/v1/inbox/comments/${comment.id}/reply`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${product.token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify({ text: 'Yes, every Sunday at nine.' }),
      })
    const sent = await reply('e2e-reply-1')
    const sentBody = (await sent.json()) as { status: string; externalId: string }
    expect(sent.status, JSON.stringify(sentBody)).toBe(200)
    expect(sentBody.status).toBe('SENT')
    // The same request again is the same reply, not a second one.
    const again = await reply('e2e-reply-1')
    expect(again.status).toBe(200)
    expect(((await again.json()) as { externalId: string }).externalId).toBe(sentBody.externalId)

    const page = await (await fetch(permalink)).text()
    expect(page.match(/Yes, every Sunday at nine\./g)?.length).toBe(1)
    expect(page).toContain('Is the &lt;b&gt;night&lt;/b&gt; tour on Sundays?')
    expect(page).not.toContain('<b>night</b>')
    const thread = (await api('GET', `/v1/inbox/comments/${comment.id}`)).body
    expect(thread.comment.state).toBe('replied')
    expect(thread.replies.map((r: { text: string; fromAccount: boolean }) => [r.text, r.fromAccount])).toEqual([
      ['Yes, every Sunday at nine.', true],
    ])
    expect(thread.sentReplies).toHaveLength(1)
  })
})
