import { markCallsStarted } from '../../db/queries/target-claims'
import type { Deps } from '../../deps'

interface Asking {
  claimed: { id: string; leaseUntil: Date | null }
  resolve: (stillOurs: boolean) => void
  reject: (err: unknown) => void
}

/**
 * The "call started" markers of the in-process queue's batch-claimed targets (one per engine, shared
 * by its batches), written together: the calls that ask in the same turn of the event loop, or while
 * the previous markers are being written, are marked in one statement. Each caller learns whether
 * its claim is still its own, once its marker is committed, and only then calls its network.
 */
export function callStartMarker(deps: Pick<Deps, 'db' | 'clock'>): (claimed: Asking['claimed']) => Promise<boolean> {
  let asking: Asking[] = []
  let busy = false
  const flush = () => {
    const group = asking
    asking = []
    if (group.length === 0) {
      busy = false
      return
    }
    markCallsStarted(
      deps.db,
      group.map((a) => a.claimed),
      deps.clock.now(),
    )
      .then(
        (marked) => group.forEach((a) => a.resolve(marked.has(a.claimed.id))),
        (err: unknown) => group.forEach((a) => a.reject(err)),
      )
      .finally(flush)
  }
  return (claimed) =>
    new Promise<boolean>((resolve, reject) => {
      asking.push({ claimed, resolve, reject })
      if (busy) return
      busy = true
      // The calls of one batch reach this point within a turn or two: gather them.
      setTimeout(flush, 0)
    })
}
