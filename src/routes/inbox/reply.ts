import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, IdempotencyHeaders, jsonResponse, SECURITY } from '../../http/openapi'
import { replyToComment } from '../../services/inbox/reply'
import { CommentIdParam, InboxReplySchema, ReplyBodySchema } from '../../schemas/inbox-api'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'post',
  path: '/inbox/comments/{id}/reply',
  operationId: 'replyToInboxComment',
  tags: ['Inbox'],
  summary: 'Reply to a comment or mention, once',
  description:
    'Sends `text` as the account’s reply under the comment (or mention) on its network. The text is counted as ' +
    'that network counts a caption, against its reply budget (`inbox.replyMaxLength` in GET /v1/platforms, else ' +
    'the caption budget): over it is 422 `caption_too_long` with `limit` and `actual`. A network whose API does ' +
    'not take replies is 422 `action_not_supported`; a comment deleted on the network meanwhile is 409 ' +
    '`comment_gone` (and it is marked gone).\n\n' +
    'A reply is sent at most once. Send an `Idempotency-Key`: a retry with it answers the first result. If the ' +
    'first request died while the network was being called, the retry does not call it again: it answers 409 ' +
    '`reply_unconfirmed` saying the reply may or may not be there (check the thread, then send it with a new ' +
    'key if it is not). The answer is the reply, `SENT`, with `comment`: the reply as it shows in the thread; ' +
    'the comment answered becomes `replied`.',
  security: SECURITY,
  request: {
    headers: IdempotencyHeaders,
    params: CommentIdParam,
    body: { content: { 'application/json': { schema: ReplyBodySchema } }, required: true },
  },
  responses: { ...jsonResponse(InboxReplySchema, 'The reply, sent.'), ...errorResponses(409, 422) },
})

export const meta: RouteMeta = { idempotent: true, rateLimit: 'default', scope: 'comment' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const reply = await replyToComment(deps, {
    workspaceId: auth.workspaceId,
    commentId: c.req.valid('param').id,
    text: c.req.valid('json').text,
    now: deps.clock.now(),
    idempotencyKey: c.req.header('idempotency-key'),
  })
  return c.json(reply, 200)
}
