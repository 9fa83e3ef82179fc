import { createRoute, type RouteHandler, z } from '@hono/zod-openapi'
import { streamSSE } from 'hono/streaming'
import { eventStreamPolicy, parseStreamTypes } from '../../domain/webhooks/event-stream'
import type { AppEnv } from '../../http/context'
import { errorResponses, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { EVENT_STREAM_EXAMPLE, EVENT_STREAM_FORMAT, EventStreamQuery } from '../../schemas/events'
import { openEventStream, pumpEventStream } from '../../services/webhooks/event-stream'

export const route = createRoute({
  method: 'get',
  path: '/events/stream',
  operationId: 'streamEvents',
  tags: ['Webhooks'],
  summary: "The workspace's events, live (Server-Sent Events)",
  description: EVENT_STREAM_FORMAT,
  security: SECURITY,
  request: {
    query: EventStreamQuery,
    headers: z.object({
      'last-event-id': z
        .string()
        .max(64)
        .optional()
        .openapi({
          param: { name: 'last-event-id', in: 'header' },
          'x-id-of': 'webhookEvent',
          description: 'The id of the last event received: the stream first sends every later one.',
          example: 'evt_3kqZ7m0pL2aYbN4tR8cVxd',
        }),
    }),
  },
  responses: {
    200: {
      description:
        'An event stream (`text/event-stream`) that stays open until its lifetime ends or the client leaves.',
      content: { 'text/event-stream': { schema: z.string().openapi({ example: EVENT_STREAM_EXAMPLE }) } },
    },
    ...errorResponses(422),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const query = c.req.valid('query')
  const policy = eventStreamPolicy(deps.settings.eventStream)
  const stream = await openEventStream(deps, auth.workspaceId, {
    types: parseStreamTypes(query.types),
    lastEventId: c.req.valid('header')['last-event-id'] ?? query.lastEventId,
    policy,
  })
  let finished: () => void = () => {}
  c.set('bodyDone', new Promise<void>((resolve) => (finished = resolve)))
  const left = new AbortController()
  c.req.raw.signal.addEventListener('abort', () => left.abort())
  return streamSSE(c, async (sse) => {
    sse.onAbort(() => left.abort())
    await pumpEventStream(deps, stream, { write: (text) => sse.write(text), signal: left.signal, policy })
    finished()
  })
}
