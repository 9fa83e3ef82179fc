/** The simulated network's public post page (`GET /sandbox/posts/{id}`): the thread it shows, and visitors' comments. */
import { createDrizzleSandboxStore } from '../db/queries/sandbox-posts'
import type { Deps } from '../deps'
import { AppError } from '../domain/errors'
import { SANDBOX_COMMENT_LIMITS } from '../domain/sandbox-comments'
import type { SandboxThread } from '../domain/sandbox-posts'
import { loadSandboxThread } from '../networks/sandbox/thread'

/** Null for an id the simulated network never issued (or deleted). */
export function sandboxPostThread(deps: Pick<Deps, 'db'>, id: string): Promise<SandboxThread | null> {
  return loadSandboxThread(createDrizzleSandboxStore(deps.db), id)
}

export interface VisitorComment {
  postId: string
  name: string
  text: string
  /** Who asks (the client IP): each may write a few comments a minute. */
  clientKey: string
}

const length = (text: string) => [...text].length

/** The visitor's name and text, trimmed, or an `invalid_request` naming what is wrong. */
function checked(input: VisitorComment): { name: string; text: string } {
  const name = input.name.trim()
  const text = input.text.trim()
  const { name: maxName, text: maxText } = SANDBOX_COMMENT_LIMITS
  if (name === '') throw new AppError('invalid_request', 'Write your name.')
  if (text === '') throw new AppError('invalid_request', 'Write a comment.')
  if (length(name) > maxName)
    throw new AppError('invalid_request', `The name is ${length(name)} characters; at most ${maxName}.`)
  if (length(text) > maxText)
    throw new AppError('invalid_request', `The comment is ${length(text)} characters; at most ${maxText}.`)
  return { name, text }
}

/**
 * A visitor's comment on a sandbox post, as anyone may write one on a network's own site: counted
 * against the client's `sandboxComments` rate limit first, then checked, then stored. Throws
 * `not_found` for an unknown post, `rate_limited` (with the wait) or `invalid_request`.
 */
export async function addVisitorComment(
  deps: Pick<Deps, 'db' | 'rateLimiter' | 'clock'>,
  input: VisitorComment,
): Promise<void> {
  const store = createDrizzleSandboxStore(deps.db)
  const post = await store.get(input.postId)
  if (!post) throw new AppError('not_found', 'The sandbox network has no post with this id.')
  const decision = await deps.rateLimiter.check('sandboxComments', input.clientKey)
  if (!decision.allowed) {
    const retryAfterSec = Math.max(1, Math.ceil((decision.resetAt - deps.clock.now().getTime()) / 1000) + 1)
    throw new AppError(
      'rate_limited',
      `Too many comments: the limit is ${decision.limit} per minute. Try again in ${retryAfterSec} s.`,
      { retryAfterSec },
    )
  }
  const { name, text } = checked(input)
  await store.comments.add({
    accountId: post.accountId,
    sandboxPostId: post.id,
    replyToId: null,
    authorName: name,
    text,
    fromAccount: false,
    createdAt: deps.clock.now(),
  })
}
