import { z } from '@hono/zod-openapi'
import { RULES } from '../../domain/rules/index'
import { PlatformRulesSchema } from '../../domain/rules/schema'
import { PLATFORM_IDS } from '../../domain/vocabulary'
import {
  AccountIdParam,
  AccountSchema,
  BoardsSchema,
  DestinationsSchema,
  ConnectLinkSchema,
  ConnectRequestSchema,
} from '../../schemas/accounts'
import { createConnectLink } from '../../services/connect/links'
import { WorkspaceSchema } from '../../schemas/me'
import { getAccount, listAccounts } from '../../services/accounts/accounts'
import { listAccountBoards } from '../../services/accounts/boards'
import { listAccountDestinations } from '../../services/accounts/destinations'
import { getWorkspaceOverview } from '../../services/workspace/workspaces'
import { MEMBER_ROLES } from '../../domain/people'
import { reachableWorkspaces } from '../../services/agent-oauth/grants'
import { assertAccountVisible } from '../../services/access/visibility'
import { defineTool, type McpTool } from '../tool'
import { tokenHolderOf } from '../workspace-choice'

const NO_INPUT = z.object({})
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

export const listWorkspacesTool = defineTool({
  name: 'list_workspaces',
  permission: 'read',
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
  permission: 'read',
  title: 'Workspace, plan and usage',
  description: [
    'The workspace (the default, or `workspaceId`): name, time zone (queue slots and best times use it), plan limits (accounts,',
    'posts per calendar month; -1 is unlimited) and usage this month. Call it first: it confirms the token and',
    'tells how many posts the plan still allows (beyond the cap create_post answers `plan_limit_reached`).',
  ].join(' '),
  input: NO_INPUT,
  output: WorkspaceSchema,
  annotations: READ,
  run: ({ deps, workspaceId }) => getWorkspaceOverview(deps.db, workspaceId, deps.clock.now()),
})

export const listAccountsTool = defineTool({
  name: 'list_accounts',
  permission: 'read',
  title: 'Connected social accounts',
  description: [
    'Connected social accounts, oldest first: `id` (for `accountIds`), platform, username, status. Only ACTIVE',
    'accounts publish; EXPIRED needs the user to reconnect it (`statusMessage` says why). `connection: SANDBOX`',
    'accounts publish to a simulated network, to try a flow end to end. Then read platform_limits for their platforms.',
  ].join(' '),
  input: NO_INPUT,
  output: z.object({ accounts: z.array(AccountSchema) }),
  annotations: READ,
  run: async (ctx) => ({
    accounts: await listAccounts(ctx.deps.db, ctx.workspaceId, { visibleGroupIds: ctx.access.groupIds }),
  }),
})

export const getAccountTool = defineTool({
  name: 'get_account',
  permission: 'read',
  title: 'One connected account',
  description:
    'One account of the workspace by id (as list_accounts shows it), to check it is still ACTIVE before publishing. ' +
    'An id that is not in this workspace answers `not_found`.',
  input: z.object({ id: AccountIdParam.shape.id.openapi({ description: 'An account id from list_accounts.' }) }),
  output: AccountSchema,
  annotations: READ,
  run: async (ctx, { id }) => {
    await assertAccountVisible(ctx.deps.db, ctx, id)
    return getAccount(ctx.deps.db, ctx.workspaceId, id)
  },
})

export const platformLimitsTool = defineTool({
  name: 'platform_limits',
  permission: 'read',
  title: 'What each network accepts',
  description: [
    'The rules every post is checked against, per platform (the object the validator enforces): caption budget and',
    'how it is counted (`caption.maxLength`, `counting`: several networks do not count plain characters), thread',
    'caps, media counts, sizes, durations and aspect ratios per format, the fallback format, recommended specs.',
    'Read limits here rather than guessing. Pass `platforms` (from list_accounts): all twenty is long.',
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
  permission: 'read',
  title: 'Boards of a pinboard account',
  description: [
    'The boards of a PINBOARD_NET account, as the network reports them now. A pinboard post needs one per pinboard',
    'account: `pinboardNetBoards: { "<accountId>": "<boardId>" }` in create_post. Other platforms: `invalid_option`.',
  ].join(' '),
  input: AccountIdParam,
  output: BoardsSchema,
  annotations: { ...READ, openWorldHint: true },
  run: async (ctx, { id }) => {
    await assertAccountVisible(ctx.deps.db, ctx, id)
    return { boards: await listAccountBoards(ctx.deps, ctx.workspaceId, id) }
  },
})

export const listDestinationsTool = defineTool({
  name: 'list_destinations',
  permission: 'read',
  title: 'Where an account can post',
  description: [
    "The places an account publishes into (a board, or what its platform's `options.destination.nounPlural` in",
    'platform_limits names), as the network reports them now: `destinations: { "<accountId>": "<id>" }` in',
    'create_post. A platform whose `options.destination` is null: `invalid_option`.',
  ].join(' '),
  input: AccountIdParam,
  output: DestinationsSchema,
  annotations: { ...READ, openWorldHint: true },
  run: async (ctx, { id }) => {
    await assertAccountVisible(ctx.deps.db, ctx, id)
    return { destinations: await listAccountDestinations(ctx.deps, ctx.workspaceId, id) }
  },
})

export const connectAccountTool = defineTool({
  name: 'connect_account',
  permission: 'connect',
  title: 'A link to connect a social account',
  description: [
    "A single-use link (30 minutes) to this service's connect page for the person who owns the social account:",
    'they sign in at the network and approve (or fill in a form; where one sign-in manages several pages they pick',
    'which), then the account appears in list_accounts. Hand the `url` to the user: you cannot complete it.',
    '`connection: SANDBOX` connects a simulated account without any sign-in. A network without an OAuth client here',
    'answers `invalid_option` naming the missing settings. An EXPIRED account is renewed by the user reconnecting it.',
    '`groupId` (list_groups): the group it joins; needed when you are limited to several.',
  ].join(' '),
  input: ConnectRequestSchema,
  output: ConnectLinkSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (ctx, input) => createConnectLink(ctx.deps, ctx, input, ctx.baseUrl),
})

export const WORKSPACE_TOOLS: McpTool[] = [
  listWorkspacesTool,
  getWorkspaceTool,
  listAccountsTool,
  getAccountTool,
  connectAccountTool,
  platformLimitsTool,
  listBoardsTool,
  listDestinationsTool,
]
