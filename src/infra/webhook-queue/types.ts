/** One webhook delivery to attempt, not before its time: an outbox row's id and due time. */
export interface WebhookDue {
  deliveryId: string
  notBefore: Date
  /** Its endpoint, when known: the in-process queue runs a bounded number per endpoint at once. */
  endpointId?: string
}

/**
 * Hands webhook attempts to whatever runs them: QStash on Workers (signed callbacks to
 * `/internal/webhook-delivery`), an in-process timer queue on Node. A lost hand-over only delays:
 * the outbox row stays due and the every-minute sweep sends it.
 */
export interface WebhookQueue {
  enqueue(items: WebhookDue[]): Promise<void>
}

/** The de-duplication id of an attempt: one per outbox row and due time. */
export const webhookDueId = (item: WebhookDue): string => `${item.deliveryId}-t${item.notBefore.getTime()}`
