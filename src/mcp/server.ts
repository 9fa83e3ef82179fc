import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  type GetPromptRequest,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import type { Handler } from 'hono'
import type { AppEnv } from '../http/context'
import { describeError } from '../infra/logger'
import { PROMPTS } from './prompts'
import { callTool, describeTool, type McpTool, type ToolContext } from './tool'
import { ANALYTICS_TOOLS } from './tools/analytics'
import { APPROVAL_TOOLS } from './tools/approvals'
import { GROUP_TOOLS } from './tools/groups'
import { INBOX_TOOLS } from './tools/inbox'
import { MEDIA_TOOLS } from './tools/media'
import { PLANNING_TOOLS } from './tools/planning'
import { POST_READ_TOOLS } from './tools/posts-read'
import { POST_WRITE_TOOLS } from './tools/posts-write'
import { REFERENCE_TOOLS } from './tools/reference'
import { WORKSPACE_TOOLS } from './tools/workspace'
import { withWorkspaceArgument } from './workspace-choice'

/** Every tool, in the order `tools/list` shows them (the order an agent usually needs them). */
export const MCP_TOOLS: McpTool[] = [
  ...WORKSPACE_TOOLS,
  ...POST_READ_TOOLS,
  ...POST_WRITE_TOOLS,
  ...APPROVAL_TOOLS,
  ...MEDIA_TOOLS,
  ...REFERENCE_TOOLS,
  ...PLANNING_TOOLS,
  ...ANALYTICS_TOOLS,
  ...INBOX_TOOLS,
  ...GROUP_TOOLS,
]

const INSTRUCTIONS = [
  'Schedules and publishes one post to many social accounts (twenty networks) for the workspaces of your token.',
  'Start with list_workspaces (tools take an optional workspaceId from it; without one they work in the default),',
  'get_workspace and list_accounts; read platform_limits for the platforms you target; add media with',
  'upload_media_from_url; check the post with preview_post until it is valid; then create_post (draft, schedule,',
  'queue or now) and follow it with get_post. A refused call is an error result whose text is',
  '{"error":{"code","message","details","requestId"}}: fix what `details` names and call again (quote',
  '`requestId` when reporting a problem to the service).',
  'The prompt publish-a-social-post walks through it.',
].join(' ')

/**
 * A protocol error (JSON-RPC) of ours: the request id in its `data`, as a refused tool call carries it
 * in its text, so that an agent can quote it.
 */
const protocolError = (ctx: ToolContext, code: ErrorCode, message: string) =>
  new McpError(code, message, { requestId: ctx.requestId })

/**
 * A request handler whose unexpected failures answer `internal_error` with a fixed message and the
 * request id (never the error's own message), logged by class and request id, as `/v1` answers a bug.
 */
function guarded<R, T>(ctx: ToolContext, method: string, handler: (request: R) => T | Promise<T>) {
  return async (request: R): Promise<T> => {
    try {
      return await handler(request)
    } catch (err) {
      if (err instanceof McpError) throw err
      ctx.deps.logger.error('mcp_request_failed', { method, requestId: ctx.requestId, ...describeError(err) })
      throw protocolError(
        ctx,
        ErrorCode.InternalError,
        'Something went wrong on our side. The request id identifies it in our logs.',
      )
    }
  }
}

/**
 * A server for one request: its tools work in the caller's workspace with the request's deps.
 * `listed` is what `tools/list` answers (the tools' JSON Schemas, the same for every request).
 */
export function createMcpServer(ctx: ToolContext, version: string, listed: () => Tool[]): Server {
  const server = new Server(
    { name: 'social-publishing', title: 'Social Publishing API', version },
    { capabilities: { tools: {}, prompts: {} }, instructions: INSTRUCTIONS },
  )
  const byName = new Map(MCP_TOOLS.map((t) => [t.name, t]))
  server.setRequestHandler(
    ListToolsRequestSchema,
    guarded(ctx, 'tools/list', () => ({ tools: listed() })),
  )
  server.setRequestHandler(
    CallToolRequestSchema,
    guarded(ctx, 'tools/call', (request: CallToolRequest) => {
      const tool = byName.get(request.params.name)
      // An unknown tool is the client's protocol mistake, not a user's (MCP: -32602).
      if (!tool) throw protocolError(ctx, ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}.`)
      return callTool(tool, ctx, request.params.arguments)
    }),
  )
  server.setRequestHandler(
    ListPromptsRequestSchema,
    guarded(ctx, 'prompts/list', () => ({ prompts: PROMPTS.map((p) => p.prompt) })),
  )
  server.setRequestHandler(
    GetPromptRequestSchema,
    guarded(ctx, 'prompts/get', (request: GetPromptRequest) => {
      const prompt = PROMPTS.find((p) => p.prompt.name === request.params.name)
      if (!prompt) throw protocolError(ctx, ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}.`)
      return prompt.render(request.params.arguments ?? {})
    }),
  )
  return server
}

/**
 * `POST /mcp`: the Streamable HTTP transport, stateless (no session: a server and a transport per
 * request, so any isolate or process can answer any call) and answering JSON rather than an event
 * stream. It runs behind the same token check, rate limit, body cap and request log as `/v1`.
 */
export function mcpEndpoint(version = '1.0.0'): Handler<AppEnv> {
  // Converting the zod schemas takes milliseconds on Node and far longer in a cold isolate: made once
  // per app (a Worker isolate builds its app once), on the first tools/list.
  let tools: Tool[] | undefined
  const listed = () => (tools ??= MCP_TOOLS.map((tool) => withWorkspaceArgument(tool, describeTool(tool))))
  return async (c) => {
    const { deps, auth, clientIp, requestId } = c.var
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: deps.settings.maxBodyBytes,
    })
    // Where links to this service's own pages point (connect links): as the REST route answers them.
    const baseUrl = deps.settings.publicUrl ?? new URL(c.req.url).origin
    const token = { tokenId: auth.tokenId, agent: auth.agent }
    const ctx = { deps, workspaceId: auth.workspaceId, token, clientIp, requestId, baseUrl }
    const server = createMcpServer(ctx, version, listed)
    await server.connect(transport)
    try {
      return await transport.handleRequest(c.req.raw)
    } finally {
      await server.close()
    }
  }
}
