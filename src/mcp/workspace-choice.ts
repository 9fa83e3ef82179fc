/**
 * The workspace a tool call works in, chosen in one place for every tool: the optional `workspaceId`
 * argument (one of list_workspaces), else the token's default. A personal token reaches its own
 * workspace only; an agent's grant those its user ticked at consent and is still a member of,
 * checked at each call (services/agent-oauth/grants.ts).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { AppError } from '../domain/errors'
import { invalidRequest } from '../http/openapi'
import { agentHolder } from '../services/tokens'
import { chooseWorkspace, type TokenHolder } from '../services/agent-oauth/grants'
import type { McpTool, ToolContext } from './tool'

/** What `tools/list` adds to each workspace tool's input: the bare type (list_workspaces says what it is). */
const WORKSPACE_PROPERTY = { type: 'string' } as const

/** The tool as listed, with `workspaceId` among its inputs unless it works in no workspace. */
export function withWorkspaceArgument(tool: McpTool, listed: Tool): Tool {
  if (tool.noWorkspace) return listed
  const input = listed.inputSchema
  return { ...listed, inputSchema: { ...input, properties: { ...input.properties, workspaceId: WORKSPACE_PROPERTY } } }
}

/** The token behind a context: a personal token's workspace, or an agent's grant. */
export const tokenHolderOf = (ctx: ToolContext): TokenHolder => ({
  workspaceId: ctx.workspaceId,
  tokenId: ctx.token?.tokenId ?? '',
  agent: ctx.token?.agent ?? false,
})

/**
 * The call's context in the workspace it chose (an agent's with its user's access there), and its
 * arguments without `workspaceId` (the tool's own schema never sees it). A workspace the token does
 * not reach is `not_found`.
 */
export async function inChosenWorkspace(
  tool: McpTool,
  ctx: ToolContext,
  raw: Record<string, unknown>,
): Promise<{ ctx: ToolContext; args: Record<string, unknown> }> {
  const { workspaceId: requested, ...args } = raw
  if (tool.noWorkspace) return { ctx, args }
  if (requested !== undefined && typeof requested !== 'string')
    throw invalidRequest([{ path: 'workspaceId', message: 'Expected a workspace id from list_workspaces.' }])
  const workspaceId = await chooseWorkspace(ctx.deps, tokenHolderOf(ctx), requested)
  if (!ctx.token?.agent) return { ctx: { ...ctx, workspaceId }, args }
  // An agent acts with its user's role and groups in the workspace chosen, as they are now.
  const holder = await agentHolder(ctx.deps.db, ctx.token.tokenId, workspaceId)
  if (!holder) throw new AppError('not_found', 'This grant reaches no workspace.')
  return { ctx: { ...ctx, workspaceId, ...holder }, args }
}
