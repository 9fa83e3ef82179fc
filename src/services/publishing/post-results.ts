import type { Deps } from '../../deps'
import type { PublishPolicy } from '../../domain/publishing/policy'
import { recordResults, type PublishOutcome, type TargetAnswer } from './record-result'

interface Waiting {
  answer: TargetAnswer
  resolve: (outcome: PublishOutcome) => void
  reject: (err: unknown) => void
}

/**
 * Records the answers of one batch's targets, those of one post that finish together in one
 * transaction (`recordResults`): an answer that arrives while its post's results are being written
 * waits for that transaction and goes with the next one, with every other answer of the post that
 * arrived meanwhile (a group commit: nothing waits when nothing is being written). Posts are
 * independent. Each answer's promise settles with its own outcome, or the group's error.
 */
export function postResultWriter(deps: Deps, policy: PublishPolicy): (answer: TargetAnswer) => Promise<PublishOutcome> {
  /** Per post: the answers waiting for the next transaction, and whether one is being written. */
  const posts = new Map<string, { waiting: Waiting[]; writing: boolean }>()
  const flush = (postId: string) => {
    const state = posts.get(postId)
    if (!state || state.writing) return
    const group = state.waiting.splice(0)
    if (group.length === 0) {
      posts.delete(postId)
      return
    }
    state.writing = true
    recordResults(
      deps,
      policy,
      group.map((w) => w.answer),
    )
      .then(
        (outcomes) => group.forEach((w, i) => w.resolve(outcomes[i]!)),
        (err: unknown) => group.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        state.writing = false
        flush(postId)
      })
  }
  return (answer) =>
    new Promise<PublishOutcome>((resolve, reject) => {
      const postId = answer.claimed.target.postId
      const state = posts.get(postId) ?? { waiting: [], writing: false }
      posts.set(postId, state)
      state.waiting.push({ answer, resolve, reject })
      flush(postId)
    })
}
