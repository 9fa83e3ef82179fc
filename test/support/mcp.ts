/**
 * The MCP endpoint over real HTTP: the test app served on a loopback port, and the SDK's own
 * `Client` with its `StreamableHTTPClientTransport` sending the token as a bearer header, as an
 * agent's MCP client configured with a header would. Servers and clients close when the file is done.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll } from 'vitest'
import type { TestApp } from './test-app'

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

/** Serves the app on 127.0.0.1 and answers the base URL. */
export async function serveApp(t: TestApp): Promise<string> {
  const server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  closers.push(() => new Promise<void>((r) => server.close(() => r())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** One line of an agent session: the tool, its arguments, and what came back. */
export interface TranscriptEntry {
  tool: string
  arguments: Record<string, unknown>
  isError: boolean
  result: unknown
}

export interface McpSession {
  client: Client
  /** Calls a tool; records the call in `transcript`. */
  call(tool: string, args?: Record<string, unknown>): Promise<CallToolResult>
  /** Calls a tool that must succeed; answers its `structuredContent`. */
  ok(tool: string, args?: Record<string, unknown>): Promise<any>
  /** Calls a tool that must fail as a user mistake; answers the API error body it carries. */
  refused(
    tool: string,
    args?: Record<string, unknown>,
  ): Promise<{ code: string; message: string; details?: any[]; requestId: string }>
  transcript: TranscriptEntry[]
}

/** An MCP client session against `/mcp` of the app at `baseUrl`, with the test app's token (or another). */
export async function mcpSession(t: TestApp, baseUrl: string, token: string = t.token): Promise<McpSession> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': t.ip } },
  })
  await client.connect(transport)
  closers.push(() => client.close())
  // The client validates each structuredContent against the tool's outputSchema once it has listed them.
  await client.listTools()
  const transcript: TranscriptEntry[] = []
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult
    const text = result.content[0]?.type === 'text' ? result.content[0].text : ''
    transcript.push({
      tool,
      arguments: args,
      isError: result.isError === true,
      result: result.structuredContent ?? JSON.parse(text),
    })
    return result
  }
  return {
    client,
    transcript,
    call,
    async ok(tool, args) {
      const result = await call(tool, args)
      if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`)
      return result.structuredContent
    },
    async refused(tool, args) {
      const result = await call(tool, args)
      if (!result.isError) throw new Error(`${tool} succeeded: ${JSON.stringify(result.structuredContent)}`)
      if (result.structuredContent !== undefined) throw new Error('an error result carries no structuredContent')
      const text = result.content[0]?.type === 'text' ? result.content[0].text : ''
      return JSON.parse(text).error
    },
  }
}
