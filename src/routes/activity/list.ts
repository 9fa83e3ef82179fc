import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { ActivityPageSchema, ActivityQuerySchema } from '../../schemas/activity'
import {
  ACTIVITY_CSV_COLUMNS,
  ACTIVITY_CSV_MAX_ROWS,
  ACTIVITY_PAGE_DEFAULT,
  activityCsv,
  listActivity,
} from '../../services/activity/list'
import { wantsCsv } from '../../http/accept'

export const route = createRoute({
  method: 'get',
  path: '/activity',
  operationId: 'listActivity',
  tags: ['Activity'],
  summary: "The workspace's activity log: who did what, when, from where",
  description: [
    "Every change of state and administrative action, newest first: by a dashboard user, an API token, an agent's grant, a review link or the service itself. Entries are kept for the plan's retention (30, 90 or 365 days).",
    'Filter by `actorKind`, `actorId`, `action` (exact, or a prefix ending with a dot such as `post.`), `subjectType`, `subjectId`, and `from`/`to`; pass `nextCursor` as `cursor` for the next page.',
    `With \`Accept: text/csv\`: the same entries (from the cursor on, at most ${ACTIVITY_CSV_MAX_ROWS}; \`X-Rows-Left-Off\` is 1 when more matched), columns ${ACTIVITY_CSV_COLUMNS.map((c) => `\`${c}\``).join(', ')}. Text cells that a spreadsheet would read as a formula start with an apostrophe.`,
  ].join('\n\n'),
  security: SECURITY,
  request: { query: ActivityQuerySchema },
  responses: {
    200: {
      description: 'A page of entries (JSON), or the entries as CSV with `Accept: text/csv`.',
      content: {
        'application/json': { schema: ActivityPageSchema },
        'text/csv': { schema: z.string().openapi({ example: `${ACTIVITY_CSV_COLUMNS.join(',')}\r\n` }) },
      },
    },
    ...errorResponses(),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const { limit, ...query } = c.req.valid('query')
  if (wantsCsv(c.req.header('Accept'))) {
    const csv = await activityCsv(deps.db, auth.workspaceId, query)
    return c.body(csv.body, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${csv.filename}"`,
      'X-Rows-Left-Off': String(csv.leftOff),
    }) as never
  }
  return c.json(await listActivity(deps.db, auth.workspaceId, { ...query, limit: limit ?? ACTIVITY_PAGE_DEFAULT }), 200)
}
