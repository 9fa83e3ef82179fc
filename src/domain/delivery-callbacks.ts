/**
 * The delayed-delivery queues' callbacks (QStash, in the Worker): the paths and bodies the queues
 * in src/infra/ publish to and the routes in src/routes/internal/ receive.
 */

/** Where QStash delivers publishes: `POST <PUBLIC_URL>/internal/publish` (src/routes/internal/publish.ts). */
export const PUBLISH_CALLBACK_PATH = '/internal/publish'

/** The public callback URL: what messages are published to, and what their signature's `sub` must be. */
export const publishCallbackUrl = (publicUrl: string): string =>
  `${publicUrl.replace(/\/+$/, '')}${PUBLISH_CALLBACK_PATH}`

/** The JSON body of a publish callback. */
export interface PublishCallbackBody {
  targetId: string
  version: number
}

/** Where QStash delivers webhook attempts: `POST <PUBLIC_URL>/internal/webhook-delivery`. */
export const WEBHOOK_CALLBACK_PATH = '/internal/webhook-delivery'

export const webhookCallbackUrl = (publicUrl: string): string =>
  `${publicUrl.replace(/\/+$/, '')}${WEBHOOK_CALLBACK_PATH}`

/** The JSON body of a webhook attempt callback. */
export interface WebhookCallbackBody {
  deliveryId: string
}

/** Where QStash delivers inbox syncs, one account each: `POST <PUBLIC_URL>/internal/inbox-sync`. */
export const INBOX_SYNC_CALLBACK_PATH = '/internal/inbox-sync'

export const inboxSyncCallbackUrl = (publicUrl: string): string =>
  `${publicUrl.replace(/\/+$/, '')}${INBOX_SYNC_CALLBACK_PATH}`

/** The JSON body of an inbox sync callback. */
export interface InboxSyncCallbackBody {
  accountId: string
}
