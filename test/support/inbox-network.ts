/**
 * A network that keeps comments in memory and implements the adapter's inbox methods (reply, hide,
 * delete, like), registered through the networks registry the way the engine's tests register
 * theirs (`networkRegistry`). It counts its calls, can refuse the next one, can hold a reply in
 * flight (a process dying mid-call), and answers `CommentGone` for a comment deleted on it.
 */
import type { NetworkAdapter } from '../../src/networks/adapter'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import type { NetworkRegistry } from '../../src/networks/registry'

export interface HeldNetworkComment {
  externalId: string
  text: string
  parentExternalId: string | null
  hidden: boolean
  liked: boolean
  idempotencyKey: string | null
}

type Method = 'replyToComment' | 'hideComment' | 'deleteComment' | 'likeComment'

export function inboxNetwork(options: { without?: Method[] } = {}) {
  const comments = new Map<string, HeldNetworkComment>()
  const calls: Array<{ method: Method; externalId: string }> = []
  let failNext: Error | null = null
  let hold: Promise<void> | null = null
  let sequence = 0
  const held = (method: Method, externalId: string): HeldNetworkComment => {
    calls.push({ method, externalId })
    if (failNext) {
      const err = failNext
      failNext = null
      throw err
    }
    const found = comments.get(externalId)
    if (!found) throw new CommentGone(`No comment ${externalId}.`)
    return found
  }
  const methods: Pick<NetworkAdapter, Method> = {
    async replyToComment(input) {
      held('replyToComment', input.comment.externalId)
      if (hold) await hold
      const externalId = `net_reply_${++sequence}`
      comments.set(externalId, {
        externalId,
        text: input.text,
        parentExternalId: input.comment.externalId,
        hidden: false,
        liked: false,
        idempotencyKey: input.idempotencyKey,
      })
      return { externalId, permalink: `https://inbox.example/c/${externalId}` }
    },
    async hideComment(input) {
      held('hideComment', input.comment.externalId).hidden = input.hidden
    },
    async deleteComment(input) {
      held('deleteComment', input.comment.externalId)
      comments.delete(input.comment.externalId)
    },
    async likeComment(input) {
      held('likeComment', input.comment.externalId).liked = true
    },
  }
  for (const m of options.without ?? []) delete methods[m]
  const adapter: NetworkAdapter = {
    async publish() {
      return { status: 'failed', kind: 'rejected', message: 'not in this test' }
    },
    ...methods,
  }
  const registry: NetworkRegistry = { adapterFor: () => adapter, baseUrlFor: () => 'http://inbox.invalid', fetch }
  return {
    adapter,
    registry,
    comments,
    calls,
    /** A comment on the network (as the sync would have read it). */
    add(externalId: string, text = `comment ${externalId}`) {
      comments.set(externalId, { externalId, text, parentExternalId: null, hidden: false, liked: false, idempotencyKey: null })
    },
    /** The next call answers this failure instead. */
    failNext(kind: 'rate_limited' | 'auth_expired' | 'rejected' | 'transient' | 'unconfirmed', retryAfterSec?: number) {
      failNext = new NetworkFailure(kind, `the network said ${kind}`, retryAfterSec)
    },
    /** Replies wait for `until` once the network took them (a call in flight). */
    holdReplies(until: Promise<void> | null) {
      hold = until
    },
  }
}
