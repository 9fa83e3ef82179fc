/** The caller of a tool call, for the services that record who did what: the token's actor in the chosen workspace. */
import type { Caller } from '../services/caller'
import type { ToolContext } from './tool'

export const toolCaller = (ctx: ToolContext): Caller => ({
  workspaceId: ctx.workspaceId,
  access: ctx.access,
  actor: ctx.actor,
  userId: ctx.userId,
  ip: ctx.clientIp,
})
