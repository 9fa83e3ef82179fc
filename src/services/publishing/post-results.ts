import type { Deps } from '../../deps'
import type { PublishPolicy } from '../../domain/publishing/policy'
import { recordResults, type PublishOutcome, type TargetAnswer } from './record-result'

/**
 * How long an answer waits for the other targets of its post that are still at their networks in
 * this process, so that they are written in one transaction; past it, what has arrived is written.
 * The answers of calls that started together arrive within a millisecond or two; in the benchmark a
 * longer wait (10, 25 ms) grouped no more and only delayed each result by that much.
 */
export const SIBLING_WAIT_MS = 5

interface Waiting {
  answer: TargetAnswer
  resolve: (outcome: PublishOutcome) => void
  reject: (err: unknown) => void
}

/** Per post: answers waiting for the next transaction, answers still on their way, and the writing. */
interface PostState {
  waiting: Waiting[]
  coming: number
  writing: boolean
  timer: ReturnType<typeof setTimeout> | undefined
}

/** The in-process queue's writer of results (one per engine), shared by its batches. */
export interface PostResultWriter {
  /** One more answer of this post will come (its target was claimed and goes to its network). */
  expect(postId: string): void
  /** That answer will not come after all (its call was not made). */
  forgo(postId: string): void
  /** Records an expected answer; settles with its outcome, or the error of its group's transaction. */
  record(answer: TargetAnswer): Promise<PublishOutcome>
}

/**
 * Records the answers of the targets of one post that finish close together in one transaction
 * (`recordResults`, a group commit). An answer waits while others of its post are expected, at most
 * `waitMs`, and while the post's previous group is being written; then everything of the post that
 * has arrived goes together. With nothing else of its post on its way, an answer is written at once.
 * Posts are independent.
 */
export function postResultWriter(deps: Deps, policy: PublishPolicy, waitMs = SIBLING_WAIT_MS): PostResultWriter {
  const posts = new Map<string, PostState>()
  const stateOf = (postId: string) => {
    let state = posts.get(postId)
    if (!state) {
      state = { waiting: [], coming: 0, writing: false, timer: undefined }
      posts.set(postId, state)
    }
    return state
  }
  const write = (postId: string, state: PostState) => {
    clearTimeout(state.timer)
    state.timer = undefined
    const group = state.waiting.splice(0)
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
        next(postId, state)
      })
  }
  /** Writes now, arms the wait, or forgets the post, as its state says. */
  const next = (postId: string, state: PostState) => {
    if (state.writing) return
    if (state.waiting.length === 0) {
      if (state.coming === 0 && state.timer === undefined) posts.delete(postId)
      return
    }
    if (state.coming === 0) return write(postId, state)
    state.timer ??= setTimeout(() => write(postId, state), waitMs)
  }
  return {
    expect(postId) {
      stateOf(postId).coming++
    },
    forgo(postId) {
      const state = stateOf(postId)
      state.coming = Math.max(0, state.coming - 1)
      next(postId, state)
    },
    record(answer) {
      const postId = answer.claimed.target.postId
      return new Promise<PublishOutcome>((resolve, reject) => {
        const state = stateOf(postId)
        state.coming = Math.max(0, state.coming - 1)
        state.waiting.push({ answer, resolve, reject })
        next(postId, state)
      })
    },
  }
}
