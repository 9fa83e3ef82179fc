import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, SECURITY } from '../../http/openapi'
import { analyticsCsv, CSV_COLUMNS, CSV_MAX_ROWS } from '../../services/analytics/csv'
import { MAX_PERIOD_DAYS } from '../../services/analytics/period'
import { getAnalytics } from '../../services/analytics/read'
import { AnalyticsQuerySchema, AnalyticsSchema, ENGAGEMENT_RATE_RULE } from '../../schemas/analytics'
import type { RouteMeta } from '../../http/route-meta'
import { scopeOf } from '../../services/access/visibility'

export const route = createRoute({
  method: 'get',
  path: '/analytics',
  operationId: 'getAnalytics',
  tags: ['Analytics'],
  summary: 'Followers per account, the figures of the posts of a period, their totals per network, or CSV',
  description: [
    'The period is `from` to `to`, calendar days of the workspace time zone, both included (default: the last 30 days, ending today); at most ' +
      `${MAX_PERIOD_DAYS} days, and \`from\` after \`to\` is 400. \`accountId\`, \`platform\`, \`groupId\` and \`labelId\` narrow it to one account, network, account group or label (\`byLabel\` gives the totals per label). A member limited to some groups sees their accounts only.`,
    '',
    "Figures are collected by a background pass, not read live: each account's follower count once a day (the workspace's calendar day), and each published target's metrics hourly during its first 24 hours, daily until it is 7 days old, weekly until 30 days, then no more (its last figures stand). `POST /v1/analytics/refresh` reads them now; `refreshing` is true until it has.",
    '',
    "**Null means unknown, never zero.** A figure is null when the network does not report it to this service (`reports.postMetrics` says what each account's network gives; the professional network, the text-thread network and the chat community report nothing, the messaging app a member count only), or when it has not been collected yet (`collectedAt` null). Totals sum the figures that are known; a total is null when no target has that figure.",
    '',
    '`engagement` = likes + comments + shares + saves, summed over the figures the network reported; views, clicks, impressions and reach are exposure, not interactions, and are not part of it. ' +
      ENGAGEMENT_RATE_RULE,
    '',
    `With \`Accept: text/csv\`: one row per post target published in the period, newest first (at most ${CSV_MAX_ROWS}; \`X-Rows-Left-Off\` counts the rest), columns ${CSV_COLUMNS.map((c) => `\`${c}\``).join(', ')}. An empty cell is unknown. Text cells that a spreadsheet would read as a formula start with an apostrophe.`,
  ].join('\n'),
  security: SECURITY,
  request: { query: AnalyticsQuerySchema },
  responses: {
    200: {
      description: "The workspace's analytics for the period (JSON), or its targets as CSV with `Accept: text/csv`.",
      content: {
        'application/json': { schema: AnalyticsSchema },
        'text/csv': { schema: z.string().openapi({ example: `${CSV_COLUMNS.join(',')}\r\n` }) },
      },
    },
    ...errorResponses(),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

/** Whether the client asked for CSV rather than JSON (the first of the two it names). */
function wantsCsv(accept: string | undefined): boolean {
  if (!accept) return false
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase())
  const csv = types.indexOf('text/csv')
  const json = types.indexOf('application/json')
  return csv >= 0 && (json < 0 || csv < json)
}

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const { groupId, labelId, ...rest } = c.req.valid('query')
  const query = { ...rest, ...(await scopeOf(deps.db, auth, { groupId, labelId })) }
  if (wantsCsv(c.req.header('Accept'))) {
    const csv = await analyticsCsv(deps.db, auth.workspaceId, deps.clock.now(), query)
    return c.body(csv.body, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${csv.filename}"`,
      'X-Rows-Left-Off': String(csv.leftOff),
    }) as never
  }
  return c.json(await getAnalytics(deps.db, auth.workspaceId, deps.clock.now(), query), 200)
}
