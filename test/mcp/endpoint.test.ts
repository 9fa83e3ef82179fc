/**
 * `/mcp` as a transport (src/mcp/server.ts, src/app.ts): the SDK's own client over real HTTP, the
 * same token check, rate limit and request log as /v1, what is listed (tools with descriptions,
 * schemas and annotations; the prompt), and the answers a stateless server gives GET and DELETE.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { FULL_ACCESS, SYSTEM_ACTOR } from '../../src/domain/access'
import { createDrizzleSandboxStore } from '../../src/db/queries/sandbox-posts'
import { createMcpServer } from '../../src/mcp/server'
import { createNetworkRegistry } from '../../src/networks/create-registry'
import { createSandboxAdapter } from '../../src/networks/sandbox/adapter'
import { createToken, revokeToken } from '../../src/services/tokens'
import { account } from '../support/fixtures'
import { mcpSession, serveApp } from '../support/mcp'
import { createTestApp, type TestApp } from '../support/test-app'

const TOOLS = [
  'add_post_note',
  'list_activity',
  'list_groups',
  'list_labels',
  'list_notifications',
  'list_post_notes',
  'list_workspaces',
  'get_workspace',
  'list_accounts',
  'get_account',
  'connect_account',
  'platform_limits',
  'image_formats',
  'list_audio',
  'list_boards',
  'list_destinations',
  'list_posts',
  'get_post',
  'preview_post',
  'create_post',
  'update_post',
  'schedule_post',
  'publish_post',
  'retry_post',
  'delete_post',
  'delete_post_from_networks',
  'submit_post',
  'approve_post',
  'request_post_changes',
  'update_workspace',
  'upload_media_from_url',
  'upload_media',
  'create_media_upload',
  'register_media',
  'attach_media',
  'list_media',
  'create_variants',
  'edit_media',
  'get_queue_slots',
  'set_queue_slots',
  'get_analytics',
  'best_times',
  'get_post_analytics',
  'refresh_analytics',
  'list_comments',
  'reply_to_comment',
  'hide_comment',
]
const READ_ONLY = [
  'list_post_notes',
  'list_notifications',
  'list_groups',
  'list_labels',
  'list_activity',
  'list_workspaces',
  'get_workspace',
  'list_accounts',
  'get_account',
  'platform_limits',
  'image_formats',
  'list_audio',
  'list_boards',
  'list_destinations',
  'list_posts',
  'get_post',
  'preview_post',
  'list_media',
  'get_queue_slots',
  'get_analytics',
  'best_times',
  'get_post_analytics',
  'list_comments',
]

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
}

describe('POST /mcp', () => {
  let t: TestApp
  let baseUrl: string
  const logLines: string[] = []
  beforeAll(async () => {
    t = await createTestApp({ logLines })
    baseUrl = await serveApp(t)
  })

  /** A raw HTTP call to /mcp, as a client that is not the SDK would make it. */
  const raw = (method: string, init: { token?: string | null; body?: unknown } = {}) => {
    const headers: Record<string, string> = {
      'X-Forwarded-For': t.ip,
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
    }
    const token = init.token === undefined ? t.token : init.token
    if (token !== null) headers.Authorization = `Bearer ${token}`
    return fetch(`${baseUrl}/mcp`, {
      method,
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    })
  }

  it('lists every tool with an agent-facing description, input schema and annotations', async () => {
    const session = await mcpSession(t, baseUrl)
    expect(session.client.getServerVersion()).toMatchObject({ name: 'social-publishing' })
    expect(session.client.getInstructions()).toContain('preview_post')
    const { tools } = await session.client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort())
    // A hint left out has MCP's default; the write-only hints mean nothing for a read-only tool.
    const hint = (tool: (typeof tools)[number], name: 'destructiveHint' | 'idempotentHint') =>
      tool.annotations!.readOnlyHint ? false : (tool.annotations![name] ?? name === 'destructiveHint')
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(150)
      expect(tool.inputSchema.type, tool.name).toBe('object')
      expect(JSON.stringify(tool.inputSchema), `${tool.name}: OpenAPI-only keys`).not.toMatch(/"param"|"example"/)
      expect(tool.annotations!.readOnlyHint ?? false, tool.name).toBe(READ_ONLY.includes(tool.name))
    }
    // Output schemas only for the answers shaped for agents; the others answer a /v1 resource as it is.
    expect(tools.filter((tool) => tool.outputSchema).map((tool) => tool.name)).toEqual(['get_analytics', 'best_times'])
    const destructive = tools.filter((tool) => hint(tool, 'destructiveHint')).map((tool) => tool.name)
    expect(destructive.sort()).toEqual(['delete_post', 'delete_post_from_networks', 'set_queue_slots'])
    const idempotent = tools.filter((tool) => hint(tool, 'idempotentHint')).map((tool) => tool.name)
    expect(idempotent).toContain('register_media')
    expect(idempotent).not.toContain('create_post')
    // The input schema of create_post is the REST body's: the same required fields and enums.
    const create = tools.find((tool) => tool.name === 'create_post')!.inputSchema as any
    expect(create.required).toEqual(['type', 'accountIds', 'mediaIds', 'action'])
    expect(create.properties.action.enum).toEqual(['draft', 'now', 'schedule', 'queue'])
    expect(create.properties.caption.description).toMatch(/caption/i)
  })

  it('offers the publish-a-social-post prompt, walking through limits, media, preview and scheduling', async () => {
    const session = await mcpSession(t, baseUrl)
    const { prompts } = await session.client.listPrompts()
    expect(prompts.map((p) => p.name)).toEqual(['publish-a-social-post'])
    expect(prompts[0]!.arguments!.find((a) => a.name === 'brief')).toMatchObject({ required: true })
    const prompt = await session.client.getPrompt({
      name: 'publish-a-social-post',
      arguments: { brief: 'our summer launch', when: '2026-12-01T09:30:00Z' },
    })
    const text = (prompt.messages[0]!.content as { text: string }).text
    expect(text).toContain('our summer launch')
    expect(text).toContain('2026-12-01T09:30:00Z')
    const order = ['platform_limits', 'upload_media_from_url', 'preview_post', 'create_post', 'get_post']
    const at = order.map((name) => text.indexOf(name))
    expect(at.every((i) => i >= 0)).toBe(true)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
  })

  it('answers 401 pointing at where agents sign in without a token, and the SDK client cannot connect', async () => {
    const res = await raw('POST', { token: null, body: INITIALIZE })
    expect(res.status).toBe(401)
    expect(res.headers.get('WWW-Authenticate')).toBe(
      'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp"',
    )
    expect(res.headers.get('RateLimit-Limit')).toBe('120')
    expect(((await res.json()) as any).error.code).toBe('unauthorized')
    await expect(mcpSession(t, baseUrl, 'sps_not-a-real-token')).rejects.toMatchObject({ code: 401 })
  })

  it('refuses a revoked token, also in a session that was already open', async () => {
    const { id, token } = await createToken(t.deps.db, t.workspaceId, 'agent')
    const session = await mcpSession(t, baseUrl, token)
    expect((await session.ok('get_workspace')).workspaceId).toBe(t.workspaceId)
    await revokeToken(t.deps.db, id, new Date())
    await expect(session.call('get_workspace')).rejects.toMatchObject({ code: 401 })
    const res = await raw('POST', { token, body: INITIALIZE })
    expect(res.status).toBe(401)
    expect(res.headers.get('WWW-Authenticate')).toBe(
      'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp", error="invalid_token"',
    )
    await expect(mcpSession(t, baseUrl, token)).rejects.toMatchObject({ code: 401 })
  })

  it('answers GET and DELETE 405 with Allow: POST (stateless: no event stream, no session to end)', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await raw(method)
      expect(res.status, method).toBe(405)
      expect(res.headers.get('Allow'), method).toBe('POST')
    }
    // Without a token the token check answers first, as on /v1.
    expect((await raw('GET', { token: null })).status).toBe(401)
  })

  it('answers JSON, with no session id, and the rate-limit headers of /v1', async () => {
    const res = await raw('POST', { body: INITIALIZE })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(res.headers.get('Mcp-Session-Id')).toBeNull()
    expect(res.headers.get('RateLimit-Limit')).toBe('120')
    expect(res.headers.get('X-Request-Id')).toMatch(/\S/)
    expect(await res.json()).toMatchObject({ id: 1, result: { serverInfo: { name: 'social-publishing' } } })
    // Each request stands alone: a tool call needs no earlier initialize on the same connection.
    const call = await raw('POST', {
      body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_workspace', arguments: {} } },
    })
    expect(call.status).toBe(200)
    expect(((await call.json()) as any).result.structuredContent.workspaceId).toBe(t.workspaceId)
  })

  it('applies the body cap of /v1 (413) before the transport reads anything', async () => {
    const caption = 'x'.repeat(1_100_000)
    // Through app.request: over a socket, the server answers before reading the body and drops the connection.
    const res = await t.call('POST', '/mcp', {
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'preview_post', arguments: { caption } } },
    })
    expect(res.status).toBe(413)
    expect(((await res.json()) as any).error.code).toBe('payload_too_large')
  })

  it('logs one request line (route /mcp, workspace) and one line per tool call, never the arguments', async () => {
    const a = await account(t, 'MICROBLOG_NET')
    const session = await mcpSession(t, baseUrl)
    await session.ok('preview_post', {
      type: 'IMAGE',
      accountIds: [a.id],
      mediaIds: [],
      action: 'draft',
      caption: 'secret-ish caption text',
    })
    await session.refused('get_post', { id: 'post_doesnotexist' })
    const lines = logLines.map((l) => JSON.parse(l))
    const tools = lines.filter((l) => l.event === 'mcp_tool').slice(-2)
    expect(tools).toMatchObject([
      { tool: 'preview_post', outcome: 'ok', workspaceId: t.workspaceId },
      { tool: 'get_post', outcome: 'not_found', workspaceId: t.workspaceId },
    ])
    const requests = lines.filter((l) => l.event === 'request' && l.route === '/mcp')
    expect(requests.length).toBeGreaterThan(0)
    expect(requests.at(-1)).toMatchObject({ method: 'POST', status: 200, workspaceId: t.workspaceId })
    expect(logLines.join('\n')).not.toContain('secret-ish caption text')
  })

  it('lets a browser MCP client of an allowed origin send its protocol version header (CORS_ORIGINS)', async () => {
    const origin = 'https://agent.example.test'
    const withCors = await createTestApp({
      parts: (p) => ({ ...p, settings: { ...p.settings, corsOrigins: [origin] } }),
    })
    const res = await withCors.call('OPTIONS', '/mcp', {
      token: null,
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,mcp-protocol-version',
      },
    })
    expect(res.status).toBe(204)
    const allowed = res.headers.get('access-control-allow-headers')?.toLowerCase().split(',') ?? []
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'mcp-protocol-version']))
  })

  it('answers a bug as internal_error, with a fixed message, logged by class and request id only', async () => {
    const lines: string[] = []
    const broken = await createTestApp({
      logLines: lines,
      networkRegistry: (parts) => {
        // The simulated network without its per-platform views, with a board listing that has a bug.
        const { forPlatform: _views, ...sandbox } = createSandboxAdapter({
          store: createDrizzleSandboxStore(parts.db),
          permalinkBase: '',
        })
        const listBoards = async () => {
          throw new TypeError('boards exploded near /srv/secret-path')
        }
        return createNetworkRegistry({
          sandbox: { ...sandbox, listBoards },
          origins: parts.settings.networkOrigins,
          fetch,
        })
      },
    })
    const session = await mcpSession(broken, await serveApp(broken))
    const pinboard = await account(broken, 'PINBOARD_NET')
    const error = await session.refused('list_boards', { id: pinboard.id })
    expect(error.code).toBe('internal_error')
    expect(JSON.stringify(error)).not.toContain('secret-path')
    const failed = lines.map((l) => JSON.parse(l)).find((l) => l.event === 'mcp_tool_failed')
    expect(failed).toMatchObject({ tool: 'list_boards', errorType: 'TypeError', requestId: expect.any(String) })
    // The answer carries the id the log line was written with, so a report can be matched to it.
    expect(error.requestId).toBe(failed.requestId)
    expect(lines.join('\n')).not.toContain('secret-path')
  })

  it('answers an unknown tool as a protocol error (the client named something that is not listed)', async () => {
    const session = await mcpSession(t, baseUrl)
    const error = await session.client.callTool({ name: 'post_everything', arguments: {} }).catch((e) => e)
    expect(error).toBeInstanceOf(McpError)
    expect(error.code).toBe(ErrorCode.InvalidParams)
    expect(error.data).toEqual({ requestId: expect.stringMatching(/\S/) })
  })

  it("puts the request's id in a refused call's error body, as /v1 does (the X-Request-Id of the answer)", async () => {
    const requestId = `req-mcp-${Date.now()}`
    const res = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${t.token}`,
        'X-Forwarded-For': t.ip,
        'X-Request-Id': requestId,
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'get_post', arguments: { id: 'post_doesnotexist' } },
      }),
    })
    expect(res.headers.get('X-Request-Id')).toBe(requestId)
    const { result } = (await res.json()) as { result: { isError: boolean; content: Array<{ text: string }> } }
    expect(result.isError).toBe(true)
    expect(JSON.parse(result.content[0]!.text)).toEqual({
      error: { code: 'not_found', message: expect.any(String), requestId },
    })
    // A schema refusal too, with its details.
    const session = await mcpSession(t, baseUrl)
    const invalid = await session.refused('get_post', {})
    expect(Object.keys(invalid)).toEqual(['code', 'message', 'details', 'requestId'])
    expect(invalid.requestId).toMatch(/\S/)
  })

  it('answers a failure outside a tool (listing) as internal_error with the request id, never its message', async () => {
    const lines: string[] = []
    const broken = await createTestApp({ logLines: lines })
    const ctx = {
      deps: broken.deps,
      workspaceId: broken.workspaceId,
      clientIp: '10.0.0.1',
      requestId: 'req_listing',
      access: FULL_ACCESS,
      actor: SYSTEM_ACTOR,
      userId: null,
    }
    const server = createMcpServer({ ...ctx, baseUrl: 'http://localhost' }, '1.0.0', () => {
      throw new TypeError('schemas exploded near /srv/secret-path')
    })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'test-agent', version: '1.0.0' })
    await client.connect(clientSide)
    const error = await client.listTools().catch((e) => e)
    await client.close()
    expect(error).toBeInstanceOf(McpError)
    expect(error.code).toBe(ErrorCode.InternalError)
    expect(error.data).toEqual({ requestId: 'req_listing' })
    expect(JSON.stringify({ message: error.message, data: error.data })).not.toContain('secret-path')
    const failed = lines.map((l) => JSON.parse(l)).find((l) => l.event === 'mcp_request_failed')
    expect(failed).toMatchObject({ method: 'tools/list', errorType: 'TypeError', requestId: 'req_listing' })
    expect(lines.join('\n')).not.toContain('secret-path')
  })
})
