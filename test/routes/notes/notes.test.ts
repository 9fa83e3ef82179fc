import { describe, expect, it } from 'vitest'
import { addSandboxAccount } from '../../../src/services/accounts/accounts'
import { memberWithToken } from '../../support/people'
import { createTestApp, type TestApp } from '../../support/test-app'

async function draft(t: TestApp): Promise<string> {
  const account = await addSandboxAccount(t.deps.db, t.deps.cipher, {
    workspaceId: t.workspaceId,
    platform: 'CHAT_NET',
    username: 'brand',
  })
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [account.id], mediaIds: [], action: 'draft', caption: 'Launch day' },
  })
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(200)
  return body.id
}

describe('notes on posts', () => {
  it('adds notes with mentions, notifies the member mentioned, lists and deletes them', async () => {
    const t = await createTestApp()
    const owner = await memberWithToken(t, 'owner', 'Olga')
    const writer = await memberWithToken(t, 'member', 'Wanda')
    const postId = await draft(t)

    const res = await t.call('POST', `/v1/posts/${postId}/notes`, {
      token: writer.token,
      body: { body: 'Can we move this to Friday?', mentions: [owner.id] },
    })
    expect(res.status).toBe(200)
    const note = await res.json()
    expect(note).toMatchObject({
      postId,
      body: 'Can we move this to Friday?',
      mentions: [owner.id],
      author: { kind: 'token', name: "Wanda's token" },
    })

    const list = await (await t.call('GET', `/v1/posts/${postId}/notes`)).json()
    expect(list.data.map((n: { id: string }) => n.id)).toEqual([note.id])

    const inbox = await (await t.call('GET', '/v1/notifications', { token: owner.token })).json()
    expect(inbox.data).toHaveLength(1)
    expect(inbox.data[0]).toMatchObject({
      kind: 'mentioned',
      title: "Wanda's token mentioned you in a note",
      subject: { type: 'post', id: postId },
    })
    // The author is not told about their own note.
    expect((await (await t.call('GET', '/v1/notifications', { token: writer.token })).json()).data).toHaveLength(0)

    // Only the author or a manager deletes a note.
    const other = await memberWithToken(t, 'member', 'Otto')
    const refused = await t.call('DELETE', `/v1/posts/${postId}/notes/${note.id}`, { token: other.token })
    expect(refused.status).toBe(403)
    expect((await refused.json()).error.code).toBe('forbidden')
    expect((await t.call('DELETE', `/v1/posts/${postId}/notes/${note.id}`, { token: writer.token })).status).toBe(200)
    expect((await (await t.call('GET', `/v1/posts/${postId}/notes`)).json()).data).toEqual([])
    expect((await t.call('DELETE', `/v1/posts/${postId}/notes/${note.id}`, { token: owner.token })).status).toBe(404)

    const members = await (await t.call('GET', '/v1/members')).json()
    expect(members.data.map((m: { name: string }) => m.name)).toEqual(['Olga', 'Otto', 'Wanda'])
    expect(members.data[0]).toMatchObject({ userId: owner.id, role: 'owner', groupIds: null })
  })

  it('refuses a mention of anyone but a member, in words (422)', async () => {
    const t = await createTestApp()
    const outsider = await createTestApp()
    const stranger = await memberWithToken(outsider, 'member', 'Stranger')
    const postId = await draft(t)
    const res = await t.call('POST', `/v1/posts/${postId}/notes`, {
      body: { body: 'Hi', mentions: [stranger.id, 'usr_nobody'] },
    })
    expect(res.status).toBe(422)
    const body = await res.json()
    expect(body.error.code).toBe('invalid_option')
    expect(body.error.message).toMatch(/Only members of this workspace can be mentioned/)
    expect(body.error.details.map((d: { path: string }) => d.path)).toEqual(['mentions', 'mentions'])
    expect((await (await t.call('GET', `/v1/posts/${postId}/notes`)).json()).data).toEqual([])
  })

  it("answers 404 for another workspace's post", async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const postId = await draft(t)
    const note = await (await t.call('POST', `/v1/posts/${postId}/notes`, { body: { body: 'Internal' } })).json()
    expect((await other.call('GET', `/v1/posts/${postId}/notes`)).status).toBe(404)
    expect((await other.call('POST', `/v1/posts/${postId}/notes`, { body: { body: 'Sneaky' } })).status).toBe(404)
    expect((await other.call('DELETE', `/v1/posts/${postId}/notes/${note.id}`)).status).toBe(404)
    expect((await t.call('GET', `/v1/posts/${postId}/notes`)).status).toBe(200)
  })
})
