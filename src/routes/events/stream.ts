import { createRoute, type RouteHandler, z } from '@hono/zod-openapi'
import { streamSSE } from 'hono/streaming'
import { eventStreamPolicy, parseStreamTypes } from '../../domain/webhooks/event-stream'
import type { AppEnv } from '../../http/context'
import { errorResponses, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { EVENT_STREAM_EXAMPLE, EVENT_STREAM_FORMAT, EventStreamQuery } from '../../schemas/events'
import { openEventStream } from '../../services/webhooks/event-stream'
import { describeError } from '../../infra/logger'
import { pause, SSE_HEARTBEAT, sseEvent, sseNotice, sseRetry } from '../../http/sse'

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
          param: { name: 'Last-Event-ID', in: 'header' },
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

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

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
  return streamSSE(c, async (sse) => {
    sse.onAbort(() => left.abort())
    c.req.raw.signal.addEventListener('abort', () => left.abort())
    try {
      await sse.write(sseRetry(policy.retryMs))
      if (stream.reset) await sse.write(sseNotice('reset', stream.reset))
      let heartbeatAt = Date.now() + policy.heartbeatMs
      const endsAt = Date.now() + policy.lifetimeMs
      while (!left.signal.aborted && Date.now() < endsAt) {
        for (const event of await stream.next()) await sse.write(sseEvent(event))
        if (Date.now() >= heartbeatAt) {
          await sse.write(SSE_HEARTBEAT)
          heartbeatAt = Date.now() + policy.heartbeatMs
        }
        await pause(Math.min(policy.pollMs, heartbeatAt - Date.now(), endsAt - Date.now()), left.signal)
      }
    } catch (err) {
      // The client reconnects with its last event id and loses nothing; the cause stays in the log.
      if (!left.signal.aborted) deps.logger.warn('event_stream_failed', describeError(err))
    } finally {
      await stream.close().catch((err) => deps.logger.warn('event_stream_release_failed', describeError(err)))
      finished()
    }
  }) as never
}
