import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { listAccountBoards } from '../../services/boards'
import type { RouteMeta } from '../../http/route-meta'

const AccountIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({
      param: { name: 'id', in: 'path' },
      description: 'A PINBOARD_NET account id.',
      example: 'acc_9TqX2v8LmN3pR5sW7yZa1b',
    }),
})

export const BoardSchema = z
  .object({
    id: z.string().openapi({ description: 'The value for `pinboardNetBoards[accountId]`.', example: '4127730591' }),
    name: z.string().openapi({ example: 'Recipes' }),
    privacy: z
      .string()
      .openapi({ description: 'As the network reports it: `PUBLIC`, `SECRET` or `PROTECTED`.', example: 'PUBLIC' }),
  })
  .openapi('Board')

export const BoardsSchema = z.object({ boards: z.array(BoardSchema) }).openapi('Boards')

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

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json({ boards: await listAccountBoards(deps, auth.workspaceId, c.req.valid('param').id) }, 200)
}
