/**
 * The events a webhook endpoint can subscribe to (docs/webhooks.md). Each is written in the same
 * transaction as the change it reports; `ping` is sent only by `POST /v1/webhooks/{id}/test`.
 */
export const WEBHOOK_EVENT_TYPES = [
  'target.published',
  'target.failed',
  'post.published',
  'post.failed',
  'post.deleted',
  'post.submitted',
  'post.approved',
  'post.changes_requested',
  'account.connected',
  'account.expired',
  'account.disconnected',
  'endpoint.disabled',
  'comment.received',
  'mention.received',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** Every type an event row may have: the subscribable ones and the test `ping`. */
export type StoredEventType = WebhookEventType | 'ping'

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number]

/** How an attempt ended when no 2xx came back (`errorClass` of the attempt log). */
export const WEBHOOK_ERROR_CLASSES = [
  'http_status',
  'timeout',
  'connection',
  'redirect',
  'refused_address',
  'endpoint_disabled',
] as const
export type WebhookErrorClass = (typeof WEBHOOK_ERROR_CLASSES)[number]

/** The body every delivery carries (and the bytes that are signed). */
export interface WebhookPayload {
  id: string
  type: StoredEventType
  createdAt: string
  workspaceId: string
  data: Record<string, unknown>
}
