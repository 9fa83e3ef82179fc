import type { Delivery, PublishQueue } from './types'

/** A queue that only remembers: tests read what was enqueued and run due deliveries themselves. */
export interface RecordingPublishQueue extends PublishQueue {
  /** Every delivery enqueued and not yet taken, in arrival order. */
  readonly deliveries: readonly Delivery[]
  /** Removes and returns the deliveries due at `now`, earliest first (ties in arrival order). */
  takeDue(now: Date): Delivery[]
}

export function createRecordingPublishQueue(): RecordingPublishQueue {
  let held: Delivery[] = []
  return {
    get deliveries() {
      return held
    },
    async enqueue(deliveries) {
      held = [...held, ...deliveries]
    },
    takeDue(now) {
      const due = held.filter((d) => d.notBefore.getTime() <= now.getTime())
      held = held.filter((d) => d.notBefore.getTime() > now.getTime())
      // Array.prototype.sort is stable: equal times keep their arrival order.
      return due.sort((a, b) => a.notBefore.getTime() - b.notBefore.getTime())
    },
  }
}
