import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, SECURITY } from '../../http/openapi'
import { DEFAULT_PAGE_SIZE, listPostPage, listPosts, UNPAGED_MAX } from '../../services/posts/read'
import { ListPostsQuery, PostPageSchema, PostSchema } from '../../schemas/posts'
import type { RouteMeta } from '../../http/route-meta'
import { scopeOf } from '../../services/access/visibility'

export const route = createRoute({
  method: 'get',
  path: '/posts',
  operationId: 'listPosts',
  tags: ['Posts'],
  summary: 'List posts, newest first, with filters',
  description:
    `Without \`page\`: a plain array of the first matching posts, at most \`limit\` of them (at most ${UNPAGED_MAX} ` +
    `without \`limit\`; use \`page\` to walk more). With \`page\`: an envelope \`{ data, page, limit, total, hasMore }\`; ` +
    `\`limit\` defaults to ${DEFAULT_PAGE_SIZE}, at most 100.`,
  security: SECURITY,
  request: { query: ListPostsQuery },
  responses: {
    200: {
      description: 'The posts: an array without `page`, an envelope with it.',
      content: { 'application/json': { schema: z.union([z.array(PostSchema), PostPageSchema]) } },
    },
    ...errorResponses(),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const { page, limit, groupId, labelId, ...rest } = c.req.valid('query')
  const filter = { ...rest, ...(await scopeOf(deps.db, auth, { groupId, labelId })) }
  if (page === undefined) return c.json(await listPosts(deps.db, auth.workspaceId, filter, limit ?? UNPAGED_MAX), 200)
  return c.json(await listPostPage(deps.db, auth.workspaceId, filter, page, limit ?? DEFAULT_PAGE_SIZE), 200)
}
