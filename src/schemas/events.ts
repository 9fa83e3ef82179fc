import { z } from '@hono/zod-openapi'
import { AccountSchema } from './accounts'
import { PostSchema, TargetSchema } from './posts'
import { NextCursor, StoredEventTypeSchema, WebhookEndpointSchema } from './webhooks'

const envelope = {
  id: z.string().openapi({
    description: 'The event id; also the `webhook-id` header, the same on every attempt and replay.',
    example: 'evt_3kqZ7m0pL2aYbN4tR8cVxd',
  }),
  createdAt: z.string().openapi({ format: 'date-time', description: 'When the change it reports was committed.' }),
  workspaceId: z.string(),
}

/** Any event, as `GET /v1/events` lists it and as its delivery body carries it. */
export const WebhookEventSchema = z
  .object({
    ...envelope,
    type: StoredEventTypeSchema,
    data: z
      .record(z.string(), z.unknown())
      .openapi({ description: "The event's data: see each event's schema in the document's `webhooks`." }),
  })
  .openapi('WebhookEvent')

const TargetEventData = z.object({ postId: z.string(), target: TargetSchema })

/** One schema per event type: the body POSTed to an endpoint, documented under the OpenAPI `webhooks`. */
export const EVENT_PAYLOADS = {
  'target.published': {
    summary: 'A target went out: its permalink and the network post id are set.',
    data: TargetEventData,
    name: 'TargetPublishedEvent',
  },
  'target.failed': {
    summary: "A target failed for good: its error's code, message and whether a retry can help.",
    data: TargetEventData,
    name: 'TargetFailedEvent',
  },
  'post.published': {
    summary: 'Every target of the post is published.',
    data: PostSchema,
    name: 'PostPublishedEvent',
  },
  'post.failed': {
    summary: 'The post settled with at least one failed target.',
    data: PostSchema,
    name: 'PostFailedEvent',
  },
  'post.deleted': { summary: 'The post was deleted; the post as it was.', data: PostSchema, name: 'PostDeletedEvent' },
  'account.connected': { summary: 'An account was connected.', data: AccountSchema, name: 'AccountConnectedEvent' },
  'account.expired': {
    summary: "The network refused the account's token; reconnect it.",
    data: AccountSchema.extend({ reason: z.string().openapi({ description: 'Why, and what to do.' }) }),
    name: 'AccountExpiredEvent',
  },
  'account.disconnected': {
    summary: 'An account was disconnected.',
    data: AccountSchema,
    name: 'AccountDisconnectedEvent',
  },
  'endpoint.disabled': {
    summary: 'An endpoint was disabled after five days of failed attempts.',
    data: WebhookEndpointSchema,
    name: 'EndpointDisabledEvent',
  },
  ping: {
    summary: 'Sent by `POST /v1/webhooks/{id}/test`.',
    data: z.object({ endpointId: z.string(), url: z.string() }),
    name: 'PingEvent',
  },
} as const

export const eventPayloadSchema = (type: keyof typeof EVENT_PAYLOADS) => {
  const { data, name, summary } = EVENT_PAYLOADS[type]
  return z.object({ ...envelope, type: z.literal(type), data }).openapi(name, { description: summary })
}

export const WebhookEventPageSchema = z
  .object({ data: z.array(WebhookEventSchema), nextCursor: NextCursor })
  .openapi('WebhookEventPage')

export const EventIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'evt_3kqZ7m0pL2aYbN4tR8cVxd' }),
})

export const ReplayEventSchema = z
  .object({
    endpointId: z.string().min(1).max(64).optional().openapi({
      description: 'Send to this endpoint only; without it, to every enabled endpoint subscribed.',
      'x-id-of': 'webhookEndpoint',
    }),
  })
  .openapi('ReplayEvent')

export const ReplayedEventSchema = z
  .object({ eventId: z.string(), deliveryIds: z.array(z.string()) })
  .openapi('ReplayedEvent')
