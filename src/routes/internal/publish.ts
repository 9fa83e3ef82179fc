import type { Context, MiddlewareHandler } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../http/context'
import { verifiedCallbackBody } from './verify-callback'
import { AppError } from '../../domain/errors'
import { publishCallbackUrl, type PublishCallbackBody } from '../../domain/delivery-callbacks'
import { publishTarget, type PublishOutcome } from '../../services/publishing/publish-target'

/**
 * `POST /internal/publish`: the delivery callback of the delayed-delivery queue (QStash, in the
 * Worker). Not part of the public API: outside `/v1`, no token, no rate limit, not in the OpenAPI
 * document.
 *
 * - Where deliveries do not arrive over HTTP (Node, where `deps.deliveryVerifier` is absent) the
 *   route does not exist: 404, like any unknown path.
 * - The raw body and `Upstash-Signature` are checked against the public callback URL
 *   (`PUBLIC_URL/internal/publish`, the URL the message was published to). Missing or invalid:
 *   401 in the API's error body, and nothing else happens (no database, no engine).
 * - Then the body must be `{ targetId, version }` (else 400), and the engine runs:
 *   200 `{ outcome }`. Anything unexpected is a 500, which makes QStash retry; the engine's claim
 *   makes a repeated delivery harmless.
 */
export const PATH = '/publish'

/** Far above the callback body (about 60 bytes). */
export const MAX_CALLBACK_BYTES = 16_384

const CallbackBodySchema = z.object({
  targetId: z.string().min(1).max(128),
  version: z.number().int().min(0),
}) satisfies z.ZodType<PublishCallbackBody>

/** The answer of a delivered callback. */
export interface PublishCallbackResponse {
  outcome: PublishOutcome
}

/** 404 unless this runtime receives deliveries over HTTP. */
export const requireDeliveryVerifier = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!c.get('deps').deliveryVerifier) throw new AppError('not_found', `No route ${c.req.method} ${c.req.path}.`)
  await next()
}

function parseBody(raw: string): PublishCallbackBody {
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    throw new AppError('invalid_request', 'The callback body is not valid JSON.', {
      details: [{ path: 'body', message: 'malformed JSON' }],
    })
  }
  const parsed = CallbackBodySchema.safeParse(json)
  if (!parsed.success) {
    throw new AppError('invalid_request', 'The callback body must be { targetId, version }.', {
      details: parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message })),
    })
  }
  return parsed.data
}

export async function handler(c: Context<AppEnv>): Promise<Response> {
  const deps = c.get('deps')
  const raw = await verifiedCallbackBody(c, publishCallbackUrl, 'publish_callback_rejected')
  const delivery = parseBody(raw)
  const outcome = await publishTarget(deps, delivery)
  deps.logger.debug('publish_callback', { ...delivery, retried: c.req.header('upstash-retried') ?? '0', outcome })
  return c.json({ outcome } satisfies PublishCallbackResponse, 200)
}
