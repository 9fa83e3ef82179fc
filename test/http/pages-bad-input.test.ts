/**
 * Input the database cannot store, or a form body that cannot be read, sent to the pages outside `/v1`
 * (the dashboard, hosted connect, the sandbox network, the agents' OAuth endpoints): each answers in
 * its own kind (a page, OAuth's error JSON), never a 500, and writes nothing.
 */
import { describe, expect, it } from 'vitest'
import { cookiesOf } from '../support/dashboard'
import { mountContentPages, type PagesApp } from '../support/dashboard-pages'
import { account, storedMedia } from '../support/fixtures'
import { jpeg, paint } from '../support/media'
import { createTestApp, randomIp, type TestApp } from '../support/test-app'

const NUL = 'a\u0000b'
const FORM = 'application/x-www-form-urlencoded'

/** A public dashboard form (sign-in, sign-up) submitted with its CSRF cookie and field. */
async function submitPublicForm(t: TestApp, path: string, fields: Record<string, string>, type = FORM) {
  const ip = randomIp()
  const form = await t.app.request(path, { headers: { 'x-forwarded-for': ip } })
  const csrf = cookiesOf(form).sps_form!
  const body = type === FORM ? new URLSearchParams({ _csrf: csrf, ...fields }).toString() : 'x'
  return t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': type, cookie: `sps_form=${csrf}`, 'x-forwarded-for': ip },
    body,
  })
}

const oauthForm = (t: TestApp, path: string, fields: Record<string, string>) =>
  t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': FORM, 'x-forwarded-for': randomIp() },
    body: new URLSearchParams(fields).toString(),
  })

/** A page of the dashboard refusing the input: HTML, with the status given, naming what it refused. */
async function expectPage(res: Response, status: number, words?: RegExp) {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/text\/html/)
  if (words) expect(await res.text()).toMatch(words)
}

const STORED = /cannot be stored/

describe('pages outside /v1: text the database cannot store', () => {
  it('sign-in and sign-up refuse a NUL in a field with a 400 page naming it', async () => {
    const t = await createTestApp()
    await expectPage(await submitPublicForm(t, '/app/sign-in', { email: NUL, password: 'x' }), 400, STORED)
    for (const field of ['name', 'email', 'workspaceName']) {
      const fields = { name: 'Ann', email: 'ann@example.com', password: 'a long enough pass', workspaceName: 'W' }
      const res = await submitPublicForm(t, '/app/sign-up', { ...fields, [field]: NUL })
      await expectPage(res, 400, new RegExp(`${field}[\\s\\S]*cannot be stored`))
    }
  })

  it("the OAuth endpoints answer OAuth's own error JSON (400), not a 500", async () => {
    const t = await createTestApp()
    for (const [path, fields] of [
      ['/oauth2/token', { grant_type: 'authorization_code', client_id: NUL, code: 'c', code_verifier: 'v' }],
      ['/oauth2/token', { grant_type: 'refresh_token', client_id: NUL, refresh_token: 'r' }],
      ['/oauth2/revoke', { client_id: NUL, token: 'x' }],
    ] as const) {
      const res = await oauthForm(t, path, fields)
      expect(res.status).toBe(400)
      expect(res.headers.get('cache-control')).toBe('no-store')
      const body = (await res.json()) as { error: string; error_description: string }
      expect(body.error).toBe('invalid_request')
      expect(body.error_description).toMatch(/client_id.*cannot be stored/)
    }
    const registered = await t.call('POST', '/oauth2/register', {
      token: null,
      body: { client_name: NUL, redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' },
    })
    expect(registered.status).toBe(400)
    expect(await registered.json()).toMatchObject({ error: 'invalid_client_metadata' })
  })

  it('a sandbox permalink with a NUL in its id is 404, like any unknown id', async () => {
    const t = await createTestApp()
    expect((await t.call('GET', '/sandbox/posts/%00', { token: null })).status).toBe(404)
    expect((await t.call('GET', '/sandbox/posts/post_%00x', { token: null })).status).toBe(404)
  })

  describe('signed-in forms', () => {
    const expectRefused = async (p: PagesApp, path: string, form: Record<string, string | string[]>) => {
      const res = await p.post(path, form)
      expect(res.status, `${path} ${JSON.stringify(form)}`).toBe(400)
      expect(await res.text()).toMatch(STORED)
    }

    it('compose, its check and the post editor refuse a NUL in the caption or an account id', async () => {
      const p = await mountContentPages({ role: 'owner' })
      const chat = await account(p.t, 'CHAT_NET')
      const form = { type: 'IMAGE', accountIds: [chat.id], caption: 'fine', action: 'draft' }
      await expectRefused(p, '/compose', { ...form, caption: NUL })
      await expectRefused(p, '/compose', { ...form, accountIds: [chat.id, NUL] })
      await expectRefused(p, '/compose/check', { ...form, caption: NUL })
      const created = await p.t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', accountIds: [chat.id], mediaIds: [], caption: 'draft', action: 'draft' },
      })
      const post = await created.json()
      await expectRefused(p, `/posts/${post.id}/edit`, { ...form, caption: NUL })
      expect((await (await p.t.call('GET', `/v1/posts/${post.id}`)).json()).caption).toBe('draft')
      expect(await (await p.t.call('GET', '/v1/posts')).json()).toHaveLength(1)
    })

    it('media details, workspace settings and token names refuse a NUL', async () => {
      const p = await mountContentPages({ role: 'owner' })
      const photo = await jpeg(paint(8, 8, () => [10, 20, 30]))
      const mediaId = await storedMedia(p.t, { bytes: photo, mimeType: 'image/jpeg' })
      await expectRefused(p, `/media/${mediaId}/edit`, { altText: NUL })
      await expectRefused(p, `/media/${mediaId}/edit`, { altText: 'ok', folder: NUL })
      await expectRefused(p, '/settings', { name: NUL, timezone: 'UTC' })
      await expectRefused(p, '/settings/tokens', { name: NUL })
      const me = await (await p.t.call('GET', '/v1/me')).json()
      expect(me.name).not.toContain('\u0000')
    })

    it('a NUL in the address of a page is its 404 page', async () => {
      const p = await mountContentPages()
      await expectPage(await p.get('/posts/%00'), 404)
      await expectPage(await p.get('/media/%00/canvases'), 404)
    })
  })
})

describe('pages outside /v1: a form body that cannot be read', () => {
  const NO_BOUNDARY = 'multipart/form-data'

  it('sign-in and sign-up answer multipart without a boundary with a 400 page', async () => {
    const t = await createTestApp()
    await expectPage(await submitPublicForm(t, '/app/sign-in', {}, NO_BOUNDARY), 400, /could not be read/)
    await expectPage(await submitPublicForm(t, '/app/sign-up', {}, NO_BOUNDARY), 400, /could not be read/)
  })

  it('compose (behind its CSRF check) answers it with a 400 page', async () => {
    const p = await mountContentPages()
    const res = await p.request('/compose', {
      method: 'POST',
      headers: { 'content-type': NO_BOUNDARY, 'x-csrf-token': p.csrfToken },
      body: 'caption=x',
    })
    await expectPage(res, 400, /could not be read/)
    // Without the header the token is in the body that cannot be read: still a 400, not a 500.
    const bare = await p.request('/compose', { method: 'POST', headers: { 'content-type': NO_BOUNDARY }, body: 'x' })
    await expectPage(bare, 400, /could not be read/)
  })

  it('hosted connect and the OAuth endpoints answer it with their own 400', async () => {
    const t = await createTestApp()
    const link = await (
      await t.call('POST', '/v1/accounts/connect', { body: { platform: 'MESSAGING_NET', connection: 'BOT_TOKEN' } })
    ).json()
    const path = new URL(link.url).pathname
    const headers = { 'content-type': NO_BOUNDARY, 'x-forwarded-for': randomIp() }
    await expectPage(await t.app.request(path, { method: 'POST', headers, body: 'botToken=x' }), 400)
    const token = await t.app.request('/oauth2/token', { method: 'POST', headers, body: 'grant_type=x' })
    expect(token.status).toBe(400)
    expect(await token.json()).toMatchObject({ error: 'invalid_request' })
  })
})
