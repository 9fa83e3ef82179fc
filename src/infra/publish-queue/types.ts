/** One delivery: "publish target T of post version V, not before time N". */
export interface Delivery {
  targetId: string
  version: number
  notBefore: Date
  /** Makes the delivery unique for the queue's de-duplication (the target's attempt number). */
  attempt: number
  /**
   * Set by the sweep when it hands over again a target that no delivery has claimed since its
   * dispatch (the sweep's time). A queue that remembers de-duplication ids after delivering (QStash)
   * must treat it as a new message: the first one was delivered and found nothing to claim (it came
   * before its due time, or before the post was visible), and the same id would swallow the second.
   */
  redispatchedAt?: Date
}

/**
 * The delayed-delivery port: QStash in the Worker (signed callbacks to /internal/publish), an
 * in-process timer queue on Node. Deliveries may arrive more than once or late; the engine's
 * claim makes that harmless.
 */
export interface PublishQueue {
  enqueue(deliveries: Delivery[]): Promise<void>
}

/**
 * Checks that a publish callback really comes from the delivery service: QStash's
 * `Upstash-Signature` (an HS256 JWT over the body's SHA-256 and the URL it was published to).
 * Present only where deliveries arrive over HTTP (the Worker); false for anything not proven valid.
 */
export interface DeliveryVerifier {
  verify(signature: string, body: string, url: string): Promise<boolean>
}

/**
 * The de-duplication id of a delivery: one per target, post version, attempt and due time. The
 * same delivery handed over twice (a sweep, a retried request) is one; a check the network asked
 * for later in the same attempt (a job still processing) is another, even while the delivery
 * that asked for it is still running.
 */
export const deliveryId = (d: Pick<Delivery, 'targetId' | 'version' | 'attempt' | 'notBefore'>): string =>
  `${d.targetId}-v${d.version}-a${d.attempt}-t${d.notBefore.getTime()}`
