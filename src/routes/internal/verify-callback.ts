import type { Context } from 'hono'
import { AppError } from '../../domain/errors'
import type { AppEnv } from '../../http/context'

/**
 * The check every QStash callback passes (publish, webhook delivery, inbox sync): 404 where callbacks do not
 * arrive over HTTP (Node has no verifier), then the `Upstash-Signature` verified against the URL
 * the message was published to (`PUBLIC_URL` + `path`); 401 logged as `rejectedEvent` otherwise.
 * Answers the raw body the signature covers.
 */
export async function verifiedCallbackBody(
  c: Context<AppEnv>,
  urlOf: (publicUrl: string) => string,
  rejectedEvent: string,
): Promise<string> {
  const deps = c.get('deps')
  const verifier = deps.deliveryVerifier
  if (!verifier) throw new AppError('not_found', `No route ${c.req.method} ${c.req.path}.`)
  // The Worker's configuration requires PUBLIC_URL.
  if (!deps.settings.publicUrl) throw new Error('PUBLIC_URL is not configured')
  const signature = c.req.header('upstash-signature')
  const raw = await c.req.text()
  if (!signature || !(await verifier.verify(signature, raw, urlOf(deps.settings.publicUrl)))) {
    deps.logger.warn(rejectedEvent, {
      requestId: c.get('requestId'),
      reason: signature ? 'invalid_signature' : 'missing_signature',
    })
    throw new AppError('unauthorized', 'The callback needs a valid Upstash-Signature.')
  }
  return raw
}
