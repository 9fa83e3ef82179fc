import { Hono } from 'hono'
import type { AppEnv } from '../../http/context'
import { limitBody } from '../../http/body-guard'
import * as publishCallback from './publish'
import * as webhookCallback from './webhook-delivery'
import * as inboxSyncCallback from './inbox-sync'

/**
 * Routes the platform calls, not users: mounted at `/internal`, outside `/v1`, its token auth and
 * rate limits, and plain Hono routes so the OpenAPI document never lists them.
 */
export function createInternalRoutes(): Hono<AppEnv> {
  const internal = new Hono<AppEnv>()
  internal.post(
    publishCallback.PATH,
    publishCallback.requireDeliveryVerifier(),
    limitBody(publishCallback.MAX_CALLBACK_BYTES),
    publishCallback.handler,
  )
  internal.post(
    webhookCallback.PATH,
    publishCallback.requireDeliveryVerifier(),
    limitBody(publishCallback.MAX_CALLBACK_BYTES),
    webhookCallback.handler,
  )
  internal.post(
    inboxSyncCallback.PATH,
    publishCallback.requireDeliveryVerifier(),
    limitBody(publishCallback.MAX_CALLBACK_BYTES),
    inboxSyncCallback.handler,
  )
  return internal
}
