import { readFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appOpenApiDocument,
  renderTypeScriptSchema,
  TYPESCRIPT_SCHEMA_FILE,
  TYPESCRIPT_SCHEMA_PATH,
} from '../../clients/schema-source'
import { createSocialPublishingClient, type SocialPublishingClient } from '../../clients/typescript/index'
import { newId } from '../../src/lib/ids'
import { account } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

describe('the typed TypeScript client (clients/typescript)', () => {
  it('has types made from the current OpenAPI document (else: npm run client:generate)', async () => {
    const fresh = await renderTypeScriptSchema(appOpenApiDocument())
    const committed = await readFile(TYPESCRIPT_SCHEMA_FILE, 'utf8')
    expect(
      committed,
      `${TYPESCRIPT_SCHEMA_PATH} is stale: the OpenAPI document changed. Run \`npm run client:generate\` and commit it.`,
    ).toBe(fresh)
  })

  describe('over real HTTP against the app', () => {
    let t: TestApp
    let server: ReturnType<typeof serve>
    let baseUrl: string
    let client: SocialPublishingClient
    /** What the client handed to its `fetch`: where, and with which Authorization header. */
    const sent: { url: string; authorization: string | null }[] = []

    beforeAll(async () => {
      t = await createTestApp()
      server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 })
      await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      client = createSocialPublishingClient({
        baseUrl,
        token: t.token,
        fetch: (request) => {
          sent.push({ url: request.url, authorization: request.headers.get('authorization') })
          return fetch(request)
        },
      })
    })
    afterAll(async () => {
      await new Promise<void>((r) => server.close(() => r()))
    })

    it('creates a post, reads it back, finds it in the list and reads the workspace, with the token', async () => {
      const a = await account(t, 'MICROBLOG_NET')
      const created = await client.POST('/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], accountIds: [a.id], action: 'draft', caption: 'Hello from the client' },
      })
      expect(created.response.status).toBe(200)
      expect(created.error).toBeUndefined()
      const { warnings, ...post } = created.data!
      expect(post).toMatchObject({ status: 'DRAFT', caption: 'Hello from the client' })
      expect(warnings).toEqual([])
      expect(sent[0]).toEqual({ url: `${baseUrl}/v1/posts`, authorization: `Bearer ${t.token}` })

      const read = await client.GET('/v1/posts/{id}', { params: { path: { id: post.id } } })
      expect(read.data).toEqual(post)

      const listed = await client.GET('/v1/posts', { params: { query: { page: 1, limit: 10 } } })
      expect(listed.data).toMatchObject({ page: 1, total: 1, hasMore: false })
      const page = listed.data!
      expect(Array.isArray(page) ? page : page.data).toEqual([post])

      const me = await client.GET('/v1/me')
      expect(me.data).toMatchObject({ workspaceId: t.workspaceId, plan: { id: 'pro' } })
    })

    it('gives a 404 as the typed error body, with the same request id as the header', async () => {
      const missing = await client.GET('/v1/posts/{id}', { params: { path: { id: newId('post') } } })
      expect(missing.response.status).toBe(404)
      expect(missing.data).toBeUndefined()
      const error = missing.error!.error
      expect(error.code).toBe('not_found')
      expect(error.requestId).toBe(missing.response.headers.get('x-request-id'))
    })

    it('rejects a wrong body at compile time and, sent anyway, the API answers 400 invalid_request', async () => {
      const a = await account(t, 'MICROBLOG_NET', 'second')
      const rejected = await client.POST('/v1/posts', {
        // @ts-expect-error `action` is one of draft, now, schedule, queue: a type regression fails `npm run typecheck`.
        body: { type: 'IMAGE', mediaIds: [], accountIds: [a.id], action: 'later' },
      })
      expect(rejected.response.status).toBe(400)
      expect(rejected.error?.error).toMatchObject({ code: 'invalid_request', details: [{ path: 'action' }] })
    })

    it('a client with an unknown token gets the typed 401 error body', async () => {
      const stranger = createSocialPublishingClient({ baseUrl, token: `sps_${'x'.repeat(43)}` })
      const me = await stranger.GET('/v1/me')
      expect(me.response.status).toBe(401)
      expect(me.error?.error.code).toBe('unauthorized')
    })
  })
})
