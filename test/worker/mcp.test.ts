/// <reference types="@cloudflare/workers-types" />
/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { exports } from 'cloudflare:workers'
import { describe, expect, inject, it } from 'vitest'

/**
 * `/mcp` inside workerd: the Worker's own fetch handler answers the Streamable HTTP transport
 * (the SDK's web-standard transport, a server per request) from PostgreSQL through the Neon driver,
 * with the rate limit counted in Redis. JSON-RPC is sent as any MCP client sends it.
 */
const fixture = inject('workerSmoke')
const self = (exports as unknown as { default: Fetcher }).default

let nextId = 1
async function rpc(method: string, params: unknown, token: string | null = fixture.token) {
  const headers: Record<string, string> = {
    'CF-Connecting-IP': `mcp-${crypto.randomUUID()}`,
    Accept: 'application/json, text/event-stream',
    'Content-Type': 'application/json',
    'MCP-Protocol-Version': '2025-06-18',
  }
  if (token) headers.Authorization = `Bearer ${token}`
  const res = await self.fetch('https://api.test/mcp', {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  })
  return { res, body: (await res.json()) as any }
}

const callTool = async (name: string, args: Record<string, unknown> = {}) =>
  (await rpc('tools/call', { name, arguments: args })).body.result

describe(`/mcp in workerd (database: ${fixture.database})`, () => {
  it('initializes, lists the tools and calls them against PostgreSQL through the Neon driver', async () => {
    const init = await rpc('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'workerd-smoke', version: '1' },
    })
    expect(init.res.status, JSON.stringify(init.body)).toBe(200)
    expect(init.body.result.serverInfo.name).toBe('social-publishing')
    expect(init.res.headers.get('RateLimit-Limit')).toBe('120')

    const { body } = await rpc('tools/list', {})
    // Every tool of the Node server is listed in workerd too (the agency tools included).
    expect(body.result.tools.length).toBe(47)
    expect(body.result.tools.map((t: any) => t.name)).toEqual(
      expect.arrayContaining(['submit_post', 'approve_post', 'list_activity']),
    )
    expect(body.result.tools.every((t: any) => t.inputSchema.type === 'object')).toBe(true)
    expect(body.result.tools.filter((t: any) => t.outputSchema).map((t: any) => t.name)).toEqual([
      'get_analytics',
      'best_times',
    ])

    const workspace = await callTool('get_workspace')
    expect(workspace.isError).toBeUndefined()
    expect(workspace.structuredContent).toMatchObject({ workspaceId: fixture.workspaceId, name: 'Worker smoke' })

    // A write in a transaction, read back.
    const set = await callTool('set_queue_slots', { slots: [{ weekday: 1, time: '08:15' }] })
    expect(set.structuredContent.slots).toMatchObject([{ weekday: 1, time: '08:15' }])
    expect((await callTool('get_queue_slots')).structuredContent.nextFreeSlot).not.toBeNull()

    const missing = await callTool('get_post', { id: 'post_notinthisworkspace' })
    expect(missing.isError).toBe(true)
    expect(JSON.parse(missing.content[0].text).error.code).toBe('not_found')
  })

  it('answers 401 with WWW-Authenticate pointing at where agents sign in, without a token', async () => {
    const { res, body } = await rpc('tools/list', {}, null)
    expect(res.status).toBe(401)
    expect(res.headers.get('WWW-Authenticate')).toMatch(
      /^Bearer resource_metadata="https?:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp"$/,
    )
    expect(body.error.code).toBe('unauthorized')
  })
})
