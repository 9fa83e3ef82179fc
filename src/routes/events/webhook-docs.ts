import { type OpenAPIHono, z } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { EVENT_PAYLOADS, eventPayloadSchema } from '../../schemas/events'

const SIGNED_HEADERS = {
  'webhook-id': 'The event id (the same on every attempt and replay): de-duplicate on it.',
  'webhook-timestamp': 'Seconds since the epoch when the attempt was signed; refuse one far from now.',
  'webhook-signature':
    '`v1,<base64 HMAC-SHA256>` per live secret, space-separated (two during the 24 h after a rotation).',
}

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type, its body as a schema and the
 * Standard Webhooks headers. 2xx within 10 s is success; anything else is retried.
 */
export function registerWebhookDocs(registry: OpenAPIHono<AppEnv>['openAPIRegistry']): void {
  for (const type of Object.keys(EVENT_PAYLOADS) as Array<keyof typeof EVENT_PAYLOADS>) {
    const schema = eventPayloadSchema(type)
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `webhook${EVENT_PAYLOADS[type].name}`,
      tags: ['Webhooks'],
      summary: EVENT_PAYLOADS[type].summary,
      description:
        'POSTed to each enabled endpoint subscribed to this type, signed as Standard Webhooks. Answer 2xx within ' +
        '10 s; anything else (a redirect too) is retried with backoff for about three days.',
      security: [],
      request: {
        headers: z.object(
          Object.fromEntries(
            Object.entries(SIGNED_HEADERS).map(([name, description]) => [name, z.string().openapi({ description })]),
          ),
        ),
        body: { required: true, content: { 'application/json': { schema } } },
      },
      responses: { 200: { description: 'Received (any 2xx).' } },
    })
  }
}
