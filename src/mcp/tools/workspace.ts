import { z } from '@hono/zod-openapi'
import { RULES } from '../../domain/rules/index'
import { PlatformRulesSchema } from '../../domain/rules/schema'
import { PLATFORM_IDS } from '../../domain/vocabulary'
import {
  AccountIdParam,
  AccountSchema,
  BoardsSchema,
  ConnectLinkSchema,
  ConnectRequestSchema,
} from '../../schemas/accounts'
import { createConnectLink } from '../../services/connect-links'
import { WorkspaceSchema } from '../../schemas/me'
import { getAccount, listAccounts } from '../../services/accounts'
import { listAccountBoards } from '../../services/boards'
import { getWorkspaceOverview } from '../../services/workspaces'
import { MEMBER_ROLES } from '../../domain/people'
import { reachableWorkspaces } from '../../services/agent-oauth/grants'
import { defineTool, type McpTool } from '../tool'
import { tokenHolderOf } from '../workspace-choice'

const NO_INPUT = z.object({})
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

export const listWorkspacesTool = defineTool({
  name: 'list_workspaces',
  title: 'Workspaces this token reaches',
  description: [
    'The workspaces your token works in, the default first, with your role in each (null for a personal API token,',
    'which reaches its own workspace only). Every other tool that works in a workspace takes an optional `workspaceId`',
    'from this list; without it, it works in the `default` one (the first ticked when the user allowed you). One you',
    'were not granted, or whose user has since left it, answers `not_found`.',
  ].join(' '),
  input: NO_INPUT,
  output: z.object({
    workspaces: z.array(
      z.object({
        workspaceId: z.string(),
        name: z.string(),
        role: z.enum(MEMBER_ROLES).nullable(),
        default: z.boolean(),
      }),
    ),
  }),
  annotations: READ,
  noWorkspace: true,
  run: async (ctx) => ({ workspaces: await reachableWorkspaces(ctx.deps.db, tokenHolderOf(ctx)) }),
})

export const getWorkspaceTool = defineTool({
  name: 'get_workspace',
  title: 'Workspace, plan and usage',
  description: [
    'The workspace (the default, or `workspaceId`): its name, time zone (queue slots and best times use it), plan limits',
    '(connected accounts, posts per calendar month; -1 means unlimited) and usage this month.',
    'Call it first in a session: it confirms the token works and tells you how many posts the plan still allows',
    '(create_post answers `plan_limit_reached` beyond the monthly cap).',
  ].join(' '),
  input: NO_INPUT,
  output: WorkspaceSchema,
  annotations: READ,
  run: ({ deps, workspaceId }) => getWorkspaceOverview(deps.db, workspaceId, deps.clock.now()),
})

export const listAccountsTool = defineTool({
  name: 'list_accounts',
  title: 'Connected social accounts',
  description: [
    'Every social account connected to the workspace, oldest first: its id (what `accountIds` takes), platform,',
    'username and status. Only ACTIVE accounts can publish: EXPIRED needs the user to reconnect it (`statusMessage`',
    'says why). `connection: SANDBOX` accounts publish to a simulated network, good for trying a flow end to end.',
    'Call it before writing a post, then platform_limits for the platforms you pick. Credentials are never shown.',
  ].join(' '),
  input: NO_INPUT,
  output: z.object({ accounts: z.array(AccountSchema) }),
  annotations: READ,
  run: async ({ deps, workspaceId }) => ({ accounts: await listAccounts(deps.db, workspaceId) }),
})

export const getAccountTool = defineTool({
  name: 'get_account',
  title: 'One connected account',
  description:
    'One account of the workspace by id (as list_accounts shows it), to check it is still ACTIVE before publishing. ' +
    'An id that is not in this workspace answers `not_found`.',
  input: z.object({ id: AccountIdParam.shape.id.openapi({ description: 'An account id from list_accounts.' }) }),
  output: AccountSchema,
  annotations: READ,
  run: ({ deps, workspaceId }, { id }) => getAccount(deps.db, workspaceId, id),
})

export const platformLimitsTool = defineTool({
  name: 'platform_limits',
  title: 'What each network accepts',
  description: [
    'The rules the service checks every post against, per platform: the caption budget and how it is counted',
    '(`caption.maxLength`, `counting`; several networks do not count plain characters), thread caps, media counts,',
    'sizes, durations and aspect ratios per format, the formats a platform takes and its fallback, recommended',
    'image and video specs. The same object the validator enforces, so read limits here instead of guessing.',
    'Pass `platforms` (from list_accounts) to get only those; without it, all twelve (long).',
  ].join(' '),
  input: z.object({
    platforms: z
      .array(z.enum(PLATFORM_IDS))
      .min(1)
      .max(PLATFORM_IDS.length)
      .optional()
      .openapi({ description: 'Only these platform ids; omit for every platform.' }),
  }),
  output: z.object({ platforms: z.partialRecord(z.enum(PLATFORM_IDS), PlatformRulesSchema) }),
  annotations: READ,
  noWorkspace: true,
  run: async (_ctx, { platforms }) => {
    const wanted = new Set(platforms ?? PLATFORM_IDS)
    return { platforms: Object.fromEntries(PLATFORM_IDS.filter((p) => wanted.has(p)).map((p) => [p, RULES[p]])) }
  },
})

export const listBoardsTool = defineTool({
  name: 'list_boards',
  title: 'Boards of a pinboard account',
  description: [
    'The boards of a PINBOARD_NET account, as the network reports them now. A pinboard post needs one board per',
    'pinboard account: put the board `id` in `pinboardNetBoards` as `{ "<accountId>": "<boardId>" }` when you',
    'create or preview the post. Any other platform answers `invalid_option`; the network may answer `rate_limited`.',
  ].join(' '),
  input: AccountIdParam,
  output: BoardsSchema,
  annotations: { ...READ, openWorldHint: true },
  run: async (ctx, { id }) => ({ boards: await listAccountBoards(ctx.deps, ctx.workspaceId, id) }),
})

export const connectAccountTool = defineTool({
  name: 'connect_account',
  title: 'A link to connect a social account',
  description: [
    "A single-use link, valid 30 minutes, to this service's hosted connect page, for the person who owns the social",
    'account: they open it, sign in at the network and approve (or fill in a form for networks without OAuth; where',
    'one sign-in manages several pages, channels or organisations they tick which to connect), and the account then',
    'appears in list_accounts. You cannot complete it yourself: hand the `url` to the user. `connection: SANDBOX`',
    'connects a simulated account with no sign-in anywhere, good for a trial. A network this deployment has no OAuth',
    'client for answers `invalid_option` naming the missing configuration keys; `redirectUrl` must be on an allowed',
    'origin. To renew an EXPIRED account, the user reconnects it (POST /v1/accounts/{id}/reconnect).',
  ].join(' '),
  input: ConnectRequestSchema,
  output: ConnectLinkSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: ({ deps, workspaceId, baseUrl }, input) => createConnectLink(deps, workspaceId, input, baseUrl),
})

export const WORKSPACE_TOOLS: McpTool[] = [
  listWorkspacesTool,
  getWorkspaceTool,
  listAccountsTool,
  getAccountTool,
  connectAccountTool,
  platformLimitsTool,
  listBoardsTool,
]
