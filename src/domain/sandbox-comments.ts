/**
 * The comments of the built-in simulated network (SANDBOX accounts): what visitors write on a
 * sandbox post's public page and what the account answers through the inbox. The port its adapter
 * and its page read and write them through (implemented over `sandbox_comments` in
 * `src/db/queries/sandbox-comments.ts`).
 */

export interface SandboxComment {
  id: string
  /** The account whose post the comment is on. */
  accountId: string
  sandboxPostId: string
  /** The comment this one answers; null when it is directly on the post. */
  replyToId: string | null
  authorName: string
  text: string
  /** Written by the account itself (a reply sent through the inbox). */
  fromAccount: boolean
  hidden: boolean
  liked: boolean
  deletedAt: Date | null
  createdAt: Date
}

export type NewSandboxComment = Pick<
  SandboxComment,
  'accountId' | 'sandboxPostId' | 'replyToId' | 'authorName' | 'text' | 'fromAccount' | 'createdAt'
>

/** Keyset position in a listing: the last comment or post of the page before. */
export interface SandboxCursor {
  at: Date
  id: string
}

export interface SandboxCommentQuery {
  /** Only comments created at or after this instant (the newest one the caller already knows). */
  since: Date | null
  after: SandboxCursor | null
  limit: number
}

export interface SandboxMentionQuery extends SandboxCommentQuery {
  /** The account that is mentioned: its own posts are left out (those comments come as comments). */
  accountId: string
  username: string
}

export interface SandboxPostQuery {
  accountId: string
  since: Date
  after: SandboxCursor | null
  limit: number
}

export interface SandboxCommentStore {
  /** Stores a visitor's comment (a fresh id every time). */
  add(comment: NewSandboxComment): Promise<SandboxComment>
  /** Stores the account's reply once per `idempotencyKey`; a retry with the key answers the stored one. */
  addOnce(comment: NewSandboxComment, idempotencyKey: string): Promise<SandboxComment>
  /** A comment, deleted or not; null for an id never issued. */
  get(id: string): Promise<SandboxComment | null>
  /** The post's comments and replies not deleted, oldest first. */
  listForPost(sandboxPostId: string, query: SandboxCommentQuery): Promise<SandboxComment[]>
  /**
   * Comments not deleted holding `@username` (any case) on other accounts' posts of the account's
   * workspace, oldest first; the caller keeps those where it is a whole word (`mentions`).
   */
  listMentions(query: SandboxMentionQuery): Promise<SandboxComment[]>
  /** Head posts of the account, newest first. */
  listPosts(query: SandboxPostQuery): Promise<Array<{ id: string; text: string; createdAt: Date; media: string[] }>>
  /** Comments not deleted per post id (posts without any are absent). */
  countsFor(sandboxPostIds: string[]): Promise<Map<string, number>>
  setHidden(id: string, hidden: boolean): Promise<void>
  setLiked(id: string): Promise<void>
  /** Marks the comment and its replies deleted. */
  markDeleted(id: string, at: Date): Promise<void>
}

/** `@name` in `text` as a whole word, any case: how the sandbox network finds mentions. */
export function mentions(text: string, username: string): boolean {
  const name = username.replace(/^@/, '').toLowerCase()
  if (name === '') return false
  const lower = text.toLowerCase()
  let at = lower.indexOf(`@${name}`)
  while (at !== -1) {
    const after = lower.charAt(at + name.length + 1)
    if (!/[a-z0-9_.]/.test(after)) return true
    at = lower.indexOf(`@${name}`, at + 1)
  }
  return false
}

/** Longest name and text a visitor may write on a post's page, in characters. */
export const SANDBOX_COMMENT_LIMITS = { name: 80, text: 2000 } as const
