import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { listAccountBoards } from '../../services/accounts/boards'
import type { RouteMeta } from '../../http/route-meta'
import { AccountIdParam, BoardsSchema } from '../../schemas/accounts'

export const route = createRoute({
  method: 'get',
  path: '/accounts/{id}/boards',
  operationId: 'listAccountBoards',
  tags: ['Accounts'],
  summary: 'The boards of a pinboard account',
  description:
    'Lists the boards of a `PINBOARD_NET` account, as the network reports them now; a board `id` is the value of `pinboardNetBoards[accountId]` when posting. Any other account is 422 `invalid_option`.',
  security: SECURITY,
  request: { params: AccountIdParam },
  responses: { ...jsonResponse(BoardsSchema, "The account's boards."), ...errorResponses(422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read', scope: 'account' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json({ boards: await listAccountBoards(deps, auth.workspaceId, c.req.valid('param').id) }, 200)
}
