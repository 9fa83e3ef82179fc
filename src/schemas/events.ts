import { z } from '@hono/zod-openapi'
import { DEFAULT_EVENT_STREAM_POLICY } from '../domain/webhooks/event-stream'
import { EVENT_RETENTION_DAYS } from '../domain/webhooks/policy'
import { AccountSchema } from './accounts'
import { InboxCommentSchema } from './inbox'
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
  'post.submitted': {
    summary: 'The post was submitted for review (`IN_REVIEW`).',
    data: PostSchema,
    name: 'PostSubmittedEvent',
  },
  'post.approved': {
    summary: 'A reviewer approved the post (`APPROVED`).',
    data: PostSchema,
    name: 'PostApprovedEvent',
  },
  'post.changes_requested': {
    summary: 'A reviewer asked for changes to the post (`CHANGES_REQUESTED`), with a comment.',
    data: PostSchema,
    name: 'PostChangesRequestedEvent',
  },
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
  'comment.received': {
    summary:
      "A comment on one of the account's posts was read from the network for the first time (never the account's own).",
    data: InboxCommentSchema,
    name: 'CommentReceivedEvent',
  },
  'mention.received': {
    summary: 'A post or comment mentioning the account was read from the network for the first time.',
    data: InboxCommentSchema,
    name: 'MentionReceivedEvent',
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

export const EventStreamQuery = z.object({
  types: z
    .string()
    .max(1000)
    .optional()
    .openapi({
      param: { name: 'types', in: 'query' },
      description: 'Only events of these types, comma-separated; an unknown type is 422 `invalid_option`.',
      example: 'post.published,target.failed',
    }),
  lastEventId: z
    .string()
    .max(64)
    .optional()
    .openapi({
      param: { name: 'lastEventId', in: 'query' },
      'x-id-of': 'webhookEvent',
      description:
        'The `Last-Event-ID` header, for clients that cannot set headers; the header wins when both are sent.',
    }),
})

const streamDefaults = DEFAULT_EVENT_STREAM_POLICY

export const EVENT_STREAM_FORMAT = [
  "The workspace's events as they are committed, as Server-Sent Events (`text/event-stream`): a way to watch",
  'them without a public URL for a webhook. The stream opens with `retry: 2000` (the reconnection delay), then',
  'sends each event as one message: `id:` the event id, `event:` its type, `data:` the event on one line, exactly',
  `the body a webhook delivery carries. A comment line \`: heartbeat\` comes every ${streamDefaults.heartbeatMs / 1000} seconds.`,
  '',
  'Without `Last-Event-ID` the stream starts now. With it (the header, or the `lastEventId` parameter), it first',
  'sends every event of the workspace after that one, in stream order, then continues live: reconnecting with',
  `the last id received loses no event and repeats none. When that id is unknown or older than the ${EVENT_RETENTION_DAYS} days`,
  'events are kept, the first message is `event: reset` with `data: {"reason":"unknown_event"|"expired",',
  '"message":"…"}` (no `id`) and the stream starts now.',
  '',
  `A stream ends after ${streamDefaults.lifetimeMs / 60_000} minutes (the client reconnects with its last id); a workspace holds at most`,
  `${streamDefaults.maxPerWorkspace} streams at once (429 \`rate_limited\` beyond).`,
].join('\n')

export const EVENT_STREAM_EXAMPLE = [
  'retry: 2000',
  '',
  'id: evt_3kqZ7m0pL2aYbN4tR8cVxd',
  'event: post.published',
  'data: {"id":"evt_3kqZ7m0pL2aYbN4tR8cVxd","type":"post.published","createdAt":"2026-01-05T09:00:00.000Z","workspaceId":"ws_7Hq2","data":{"id":"post_4mN1"}}',
  '',
  ': heartbeat',
  '',
  '',
].join('\n')
