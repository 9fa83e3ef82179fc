/** One delivery: "publish target T of post version V, not before time N". */
export interface Delivery {
  targetId: string
  version: number
  notBefore: Date
  /** Makes the delivery unique for the queue's de-duplication (the target's attempt number). */
  attempt: number
}

/**
 * The delayed-delivery port: QStash in the Worker (signed callbacks to /internal/publish), an
 * in-process timer queue on Node. Deliveries may arrive more than once or late; the engine's
 * claim makes that harmless.
 */
export interface PublishQueue {
  enqueue(deliveries: Delivery[]): Promise<void>
}
