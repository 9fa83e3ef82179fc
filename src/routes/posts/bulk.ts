import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import {
  ErrorDetailSchema,
  errorResponses,
  IdempotencyHeaders,
  issuesToDetails,
  jsonBody,
  jsonResponse,
  SECURITY,
} from '../../http/openapi'
import { BULK_COLUMNS, BULK_MAX_CSV_BYTES, BULK_MAX_ROWS, createPostsFromCsv } from '../../services/posts/bulk'
import type { CreatePostInput } from '../../services/posts/types'
import { CreatePostSchema } from '../../schemas/posts'
import type { RouteMeta } from '../../http/route-meta'
import { assertAccountsVisible } from '../../services/access/visibility'

const BulkBody = z
  .object({ csv: z.string().min(1).openapi({ description: 'The CSV document itself (RFC 4180), header row first.' }) })
  .openapi('BulkPosts', {
    example: {
      csv: 'accountIds,caption,scheduledAt\nacc_9TqX2v8LmN3pR5sW7yZa1b|acc_1cIJPnaQ9Es9ACjWpcgCRx,"Hello, world",2026-12-01T09:30:00Z\n',
    },
  })

const BulkReportSchema = z
  .object({
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    rows: z.array(
      z.object({
        line: z.number().int().openapi({ description: 'Line of the CSV where the row starts (the header is line 1).' }),
        ok: z.boolean(),
        postId: z.string().nullable(),
        error: z
          .object({ code: z.string(), message: z.string(), details: z.array(ErrorDetailSchema).optional() })
          .nullable(),
      }),
    ),
  })
  .openapi('BulkReport')

export const route = createRoute({
  method: 'post',
  path: '/posts/bulk',
  operationId: 'createPostsInBulk',
  tags: ['Posts'],
  summary: 'Create many posts from a CSV document',
  description: [
    `Columns (header row required, any order, no others): ${BULK_COLUMNS.map((c) => `\`${c}\``).join(', ')}. \`accountIds\`, \`mediaIds\` and \`threadParts\` are separated by \`|\`; \`captionOverrides\` (by platform id), \`destinations\` and \`targetOptions\` (by account id, as in POST /v1/posts) are JSON objects; \`title\` is the post title; \`type\` defaults to IMAGE; \`action\` defaults to \`schedule\` when \`scheduledAt\` is set, else \`draft\`.`,
    `Every row goes through the same checks as POST /v1/posts, in its own transaction: a bad row never stops the others, and the per-line report says which rows to fix and resend. At most ${BULK_MAX_ROWS} rows and ${BULK_MAX_CSV_BYTES} bytes of CSV per request (413 beyond). Rate limit: 10 requests a minute.`,
  ].join('\n\n'),
  security: SECURITY,
  request: { headers: IdempotencyHeaders, body: jsonBody(BulkBody) },
  responses: { ...jsonResponse(BulkReportSchema, 'One report per row.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: true, rateLimit: 'bulk' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const validate = async (input: unknown) => {
    const result = (CreatePostSchema as z.ZodType<CreatePostInput>).safeParse(input)
    if (!result.success) return { ok: false, details: issuesToDetails(result.error.issues) } as const
    await assertAccountsVisible(deps.db, auth, result.data.accountIds)
    return { ok: true, value: result.data } as const
  }
  return c.json(await createPostsFromCsv(deps, auth.workspaceId, c.req.valid('json').csv, validate), 200)
}
