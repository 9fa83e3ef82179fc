import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, SECURITY } from '../../http/openapi'
import { deletePostFromNetworks } from '../../services/posts/delete-from-networks'
import { deletePost } from '../../services/posts/delete'
import { DeletedPostSchema, DeletePostQuery, PostNetworkDeletionSchema } from '../../schemas/post-deletion'
import { PostIdParam } from '../../schemas/posts'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'delete',
  path: '/posts/{id}',
  operationId: 'deletePost',
  tags: ['Posts'],
  summary: 'Delete a post and cancel its pending publishes',
  description:
    "Removes the service's copy. Anything already published on a network stays published, unless " +
    '`fromNetworks=true`: then each published target is deleted from its network first (thread parts and ' +
    'album items too) and the answer says per target what happened. Networks without a delete endpoint keep ' +
    'the post; a target whose publish is unconfirmed or still running is not touched. Our record goes only ' +
    'when no target is left to act on; otherwise it keeps those targets, and deleting again retries only them.',
  security: SECURITY,
  request: { params: PostIdParam, query: DeletePostQuery },
  responses: {
    200: {
      description:
        'Without `fromNetworks`: the post is gone (`DeletedPost`). With `fromNetworks=true`: the outcome per ' +
        'target (`PostNetworkDeletion`).',
      content: { 'application/json': { schema: z.union([DeletedPostSchema, PostNetworkDeletionSchema]) } },
    },
    ...errorResponses(),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'write', scope: 'post-write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  const { id } = c.req.valid('param')
  if (c.req.valid('query').fromNetworks === 'true')
    return c.json(await deletePostFromNetworks(deps, callerOf(c), id), 200)
  return c.json(await deletePost(deps, callerOf(c), id), 200)
}
