import type { Context } from 'hono'
import { z } from 'zod'
import { AppError } from '../../domain/errors'
import type { AppEnv } from '../../http/context'
import { verifiedCallbackBody } from './verify-callback'
import { webhookCallbackUrl, type WebhookCallbackBody } from '../../domain/delivery-callbacks'
import { deliverWebhook, type WebhookOutcome } from '../../services/webhooks/deliver'

/**
 * `POST /internal/webhook-delivery`: QStash's call for one webhook attempt (the Worker). Checked
 * exactly like the publish callback (publish.ts): the same verifier, against
 * `PUBLIC_URL/internal/webhook-delivery`; 404 where deliveries do not arrive over HTTP (Node), 401
 * without a valid `Upstash-Signature`, 400 for a body that is not `{ deliveryId }`. Then one
 * attempt: 200 `{ outcome }`. The outbox row decides what happens, so a repeated call is harmless.
 */
export const PATH = '/webhook-delivery'

const BodySchema = z.object({ deliveryId: z.string().min(1).max(128) }) satisfies z.ZodType<WebhookCallbackBody>

export async function handler(c: Context<AppEnv>): Promise<Response> {
  const deps = c.get('deps')
  const raw = await verifiedCallbackBody(c, webhookCallbackUrl, 'webhook_callback_rejected')
  let parsed: ReturnType<typeof BodySchema.safeParse>
  try {
    parsed = BodySchema.safeParse(JSON.parse(raw))
  } catch {
    throw new AppError('invalid_request', 'The callback body is not valid JSON.')
  }
  if (!parsed.success) throw new AppError('invalid_request', 'The callback body must be { deliveryId }.')
  const outcome: WebhookOutcome = await deliverWebhook(deps, parsed.data.deliveryId)
  return c.json({ outcome }, 200)
}
