import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi'
import { z } from '@hono/zod-openapi'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { Deps } from '../deps'
import { type Access, type ActorRef, can, forbiddenMessage, type Permission } from '../domain/access'
import { AppError } from '../domain/errors'
import { toAppError } from '../http/error-response'
import { errorBody } from '../http/errors'
import { invalidRequest, issuesToDetails } from '../http/openapi'
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '../http/text-guard'
import { describeError } from '../infra/logger'
import type { RateLimitBucket } from '../infra/ratelimit/types'
import { inChosenWorkspace } from './workspace-choice'
import { leanSchema } from './json-schema'

/**
 * What a tool call works with: the request's deps and its workspace, as a `/v1` handler has. Before
 * the call, `workspaceId` is the token's (an agent grant's default); `run` gets the one the call chose.
 */
export interface ToolContext {
  deps: Deps
  workspaceId: string
  /** The token: an agent's grant may cover several workspaces. Absent: a personal token of `workspaceId`. */
  token?: { tokenId: string; agent: boolean }
  clientIp: string
  requestId: string
  /** This service's public base URL (PUBLIC_URL, else the request's origin), for links to its pages. */
  baseUrl: string
  /** What the caller may do in `workspaceId` (an agent's: its user's membership there, read again per call). */
  access: Access
  /** Who is calling, as the activity log names them. */
  actor: ActorRef
  /** The person behind the token, when known. */
  userId: string | null
}

/** The MCP tool annotations (hints for the client; the service enforces its rules itself). */
export interface ToolHints {
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
  /** True where the tool reaches a social network or a URL outside the service. */
  openWorldHint: boolean
}

/**
 * One tool: its input is a zod object schema shared with the REST route it stands beside, its
 * output an object schema (MCP's `structuredContent` is always an object), and `run` calls the
 * same service the route calls. `raw` is the arguments as sent, for the `unknown_field` warnings.
 */
export interface McpTool<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string
  title: string
  description: string
  input: I
  output: O
  annotations: ToolHints
  /** What the caller's role must allow (domain/access.ts); refused with the `forbidden` error result. */
  permission: Permission
  /** True for a tool that works in no workspace: it takes no `workspaceId`. */
  noWorkspace?: boolean
  /**
   * True where `tools/list` shows the output schema: for the answers shaped for agents, whose fields
   * come and go (`get_analytics`, `best_times`). The others answer a `/v1` resource as it is (a post,
   * an account, an asset: the OpenAPI document defines it and the description names what to read),
   * which would repeat kilobytes in tool after tool; MCP lets a tool leave its output schema out. Every
   * answer is still checked against `output` and sent as `structuredContent`.
   */
  listOutput?: true
  /**
   * The input `tools/list` shows, where `input` would repeat another tool's (preview_post takes exactly
   * create_post's arguments): a looser schema whose description points to that tool. Calls are still
   * checked against `input`.
   */
  listedInput?: z.ZodType
  /** A rate-limit bucket this tool also counts against, as its REST route does (uploads, variants). */
  rateLimit?: Exclude<RateLimitBucket, 'default'>
  run(ctx: ToolContext, input: z.output<I>, raw: Record<string, unknown>): Promise<z.input<O>>
}

/** Keeps the types of one tool's input and output together (a list of tools is `McpTool[]`). */
export const defineTool = <I extends z.ZodType, O extends z.ZodType>(tool: McpTool<I, O>): McpTool =>
  tool as unknown as McpTool

/**
 * The schema as JSON Schema (draft-07, which every MCP client validates), made lean (./json-schema.ts).
 * A description given with `.openapi({ description })` (most fields of `src/schemas/`) is kept in the
 * OpenAPI registry rather than zod's own, which `toJSONSchema` reads: it is taken from there.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-7',
    unrepresentable: 'any',
    override: (ctx) => {
      const description = getOpenApiMetadata(ctx.zodSchema as unknown as z.ZodType).description
      if (description && ctx.jsonSchema.description === undefined) ctx.jsonSchema.description = description
    },
  })
  return leanSchema(json as Parameters<typeof leanSchema>[0], io) as Tool['inputSchema']
}

/** MCP's values of the hints when a tool does not give them. */
const DEFAULT_HINTS: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
}

/** Hints that MCP reads only for a tool that writes. */
const WRITE_ONLY_HINTS = new Set(['destructiveHint', 'idempotentHint'])

/**
 * The tool as `tools/list` describes it: the hints that differ from MCP's defaults and mean something
 * for the tool, the input it lists and the output schema where it is listed.
 */
export function describeTool(tool: McpTool): Tool {
  const hints = Object.entries(tool.annotations).filter(
    ([k, v]) =>
      DEFAULT_HINTS[k as keyof ToolHints] !== v && !(tool.annotations.readOnlyHint && WRITE_ONLY_HINTS.has(k)),
  )
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.listedInput ?? tool.input, 'input'),
    ...(tool.listOutput ? { outputSchema: jsonSchemaOf(tool.output, 'output') } : {}),
    annotations: Object.fromEntries(hints),
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The API's error body, as `/v1` answers it (`code`, `message`, `details`, `requestId`, and
 * `retryAfterSec` where `/v1` also sends `Retry-After`: a tool result has no headers of its own), as
 * the text of an error result.
 */
function errorResult(err: AppError, requestId: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(errorBody(err, requestId)) }] }
}

async function countAgainst(ctx: ToolContext, bucket: RateLimitBucket): Promise<void> {
  const decision = await ctx.deps.rateLimiter.check(bucket, ctx.clientIp)
  if (decision.allowed) return
  const retryAfterSec = Math.max(0, Math.ceil((decision.resetAt - ctx.deps.clock.now().getTime()) / 1000)) + 1
  throw new AppError(
    'rate_limited',
    `Too many requests: the limit is ${decision.limit} per minute. Try again in ${retryAfterSec} s.`,
    { retryAfterSec },
  )
}

/**
 * Runs one tool call. A user's mistake (a schema refusal, an `AppError` of the service: not found,
 * conflict, a rule, the plan) is a result with `isError: true` whose text is the API's error body
 * (`code`, `message`, `details`, `requestId`); anything else is `internal_error`, logged with the request id.
 * The call works in the workspace it chose (workspace-choice.ts). One `mcp_tool` log line per call:
 * the tool, its outcome, the workspace it touched, never the arguments.
 */
export async function callTool(tool: McpTool, called: ToolContext, args: unknown): Promise<CallToolResult> {
  const started = performance.now()
  let outcome = 'ok'
  let ctx = called
  try {
    const sent = isRecord(args) ? args : {}
    const unstorable = unstorableTextPath(sent)
    if (unstorable !== null)
      throw invalidRequest([{ path: unstorable || 'arguments', message: UNSTORABLE_TEXT_MESSAGE }])
    const chosen = await inChosenWorkspace(tool, called, sent)
    ctx = chosen.ctx
    const raw = chosen.args
    // As on /v1: a role without the tool's permission is refused before its arguments are read.
    if (!can(ctx.access.role, tool.permission))
      throw new AppError('forbidden', forbiddenMessage(ctx.access.role, tool.permission))
    const input = tool.input.safeParse(raw)
    if (!input.success) throw invalidRequest(issuesToDetails(input.error.issues))
    if (tool.rateLimit) await countAgainst(ctx, tool.rateLimit)
    const result = await tool.run(ctx, input.data, raw)
    const output = tool.output.safeParse(result)
    if (!output.success) {
      ctx.deps.logger.error('mcp_output_mismatch', {
        tool: tool.name,
        requestId: ctx.requestId,
        issues: output.error.issues.length,
      })
      throw new Error(`Tool ${tool.name} answered outside its output schema.`)
    }
    const structured = output.data as Record<string, unknown>
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }
  } catch (err) {
    const appError = toAppError(err)
    outcome = appError.code
    if (appError.code === 'internal_error')
      ctx.deps.logger.error('mcp_tool_failed', { tool: tool.name, requestId: ctx.requestId, ...describeError(err) })
    return errorResult(appError, ctx.requestId)
  } finally {
    ctx.deps.logger.info('mcp_tool', {
      tool: tool.name,
      outcome,
      durationMs: Math.round(performance.now() - started),
      requestId: ctx.requestId,
      workspaceId: ctx.workspaceId,
    })
  }
}
