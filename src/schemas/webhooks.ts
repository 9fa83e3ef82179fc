import { z } from '@hono/zod-openapi'
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_ERROR_CLASSES, WEBHOOK_EVENT_TYPES } from '../domain/webhooks/events'

export const WEBHOOK_PAGE_DEFAULT = 50
export const WEBHOOK_PAGE_MAX = 100

export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES).openapi('WebhookEventType')
/** Every type an event can have: the subscribable ones and `ping`. */
export const StoredEventTypeSchema = z.enum([...WEBHOOK_EVENT_TYPES, 'ping']).openapi('WebhookAnyEventType')

const Url = z
  .string()
  .min(1)
  .max(2048)
  .openapi({
    description:
      'Where events are POSTed: https and a public address (plain http and private ones only on a ' +
      'service run with ALLOW_PRIVATE_URLS=true).',
    example: 'https://hooks.example.com/social',
  })

const Events = z
  .array(WebhookEventTypeSchema)
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .openapi({ description: 'The event types sent to this endpoint.', example: ['post.published', 'post.failed'] })

export const CreateWebhookSchema = z
  .object({
    url: Url,
    events: Events,
    description: z.string().max(500).nullable().optional(),
  })
  .openapi('CreateWebhookEndpoint')

export const UpdateWebhookSchema = z
  .object({
    url: Url.optional(),
    events: Events.optional(),
    description: z.string().max(500).nullable().optional(),
    enabled: z.boolean().optional().openapi({
      description: 'false stops sending (what waits ends FAILED); true sends again and gives it five more days.',
    }),
  })
  .openapi('UpdateWebhookEndpoint')

export const WebhookEndpointSchema = z
  .object({
    id: z.string().openapi({ example: 'whe_3kqZ7m0pL2aYbN4tR8cVxd' }),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(WebhookEventTypeSchema),
    enabled: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .openapi({ description: 'Why the service disabled it (every attempt failed for five days); else null.' }),
    previousSecretExpiresAt: z.string().nullable().openapi({
      format: 'date-time',
      description: 'Until when the secret a rotation replaced still signs, alongside the new one.',
    }),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('WebhookEndpoint')

export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z.string().openapi({
    description: 'The signing secret (`whsec_...`). Shown only in this answer: keep it now.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  }),
}).openapi('WebhookEndpointWithSecret')

export const WebhookIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'whe_3kqZ7m0pL2aYbN4tR8cVxd' }),
})

export const WebhookAttemptSchema = z
  .object({
    attempt: z.number().int(),
    statusCode: z.number().int().nullable().openapi({ description: "The receiver's HTTP status; null without one." }),
    durationMs: z.number().int(),
    responseBody: z.string().nullable().openapi({ description: "The first KiB of the receiver's answer." }),
    errorClass: z
      .enum(WEBHOOK_ERROR_CLASSES)
      .nullable()
      .openapi({ description: 'How the attempt failed; null on a 2xx.' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('WebhookAttempt')

export const WebhookDeliverySchema = z
  .object({
    id: z.string().openapi({ example: 'whd_3kqZ7m0pL2aYbN4tR8cVxd' }),
    eventId: z.string(),
    endpointId: z.string(),
    eventType: StoredEventTypeSchema,
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.array(WebhookAttemptSchema),
    nextAttemptAt: z.string().nullable().openapi({ format: 'date-time' }),
    deliveredAt: z.string().nullable().openapi({ format: 'date-time' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('WebhookDelivery')

const Limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(WEBHOOK_PAGE_MAX)
  .optional()
  .openapi({
    param: { name: 'limit', in: 'query' },
    description: `Page size, default ${WEBHOOK_PAGE_DEFAULT}, at most ${WEBHOOK_PAGE_MAX}.`,
  })

const Cursor = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .openapi({ param: { name: 'cursor', in: 'query' }, description: 'The `nextCursor` of the previous page (opaque).' })

const NextCursor = z
  .string()
  .nullable()
  .openapi({ description: 'Pass it as `cursor` for the next page; null on the last page.' })

export const ListDeliveriesQuery = z.object({
  status: z
    .enum(WEBHOOK_DELIVERY_STATUSES)
    .optional()
    .openapi({ param: { name: 'status', in: 'query' }, description: 'Only deliveries in this status.' }),
  eventType: StoredEventTypeSchema.optional().openapi({
    param: { name: 'eventType', in: 'query' },
    description: 'Only deliveries of this event type.',
  }),
  limit: Limit,
  cursor: Cursor,
})

export const WebhookDeliveryPageSchema = z
  .object({ data: z.array(WebhookDeliverySchema), nextCursor: NextCursor })
  .openapi('WebhookDeliveryPage')

export const ListEventsQuery = z.object({
  type: StoredEventTypeSchema.optional().openapi({
    param: { name: 'type', in: 'query' },
    description: 'Only events of this type.',
  }),
  limit: Limit,
  cursor: Cursor,
})

export { NextCursor }
