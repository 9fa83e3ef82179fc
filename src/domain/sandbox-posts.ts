/**
 * What the built-in simulated network (SANDBOX accounts) has "published", and the port its adapter
 * and its post page read and write it through (implemented over `sandbox_posts` in
 * `src/db/queries/sandbox-posts.ts`). One record per network post: a head post, a thread part (a
 * reply to the previous one) or a comment under the head.
 */
import type { SandboxComment, SandboxCommentStore } from './sandbox-comments'
import type { PlatformId } from './vocabulary'

export type SandboxPostKind = 'post' | 'part' | 'comment'

export interface SandboxMedia {
  url: string
  type: string
}

export interface SandboxPost {
  id: string
  accountId: string
  platform: PlatformId
  /** Unique per account, like a network's idempotency key: the same key never makes a second post. */
  idempotencyKey: string
  /** The post this one answers (a thread part, a comment); null for a head post. */
  replyToId: string | null
  kind: SandboxPostKind
  text: string
  media: SandboxMedia[]
  /** What the post was published with (format, board, pin title, link...), for its page. */
  options: Record<string, unknown>
  createdAt: Date
}

export type NewSandboxPost = Omit<SandboxPost, 'id' | 'createdAt'>

export interface SandboxStore {
  /** Stores `post` unless the account already has one under its idempotency key; returns the stored one either way. */
  insertOrGet(post: NewSandboxPost): Promise<SandboxPost>
  findByKey(accountId: string, idempotencyKey: string): Promise<SandboxPost | null>
  get(id: string): Promise<SandboxPost | null>
  /** Direct replies of a post (thread part, comments), oldest first. */
  replies(id: string): Promise<SandboxPost[]>
  /** True when a post was removed. */
  delete(id: string): Promise<boolean>
  /** The username of the account a post belongs to, for its page; null when the account is gone. */
  accountUsername(accountId: string): Promise<string | null>
  /** What visitors and the accounts write under the posts (src/domain/sandbox-comments.ts). */
  comments: SandboxCommentStore
}

/** A post of the simulated network as its page shows it: the post, its thread parts in order, its comments. */
export interface SandboxThread {
  post: SandboxPost
  parts: SandboxPost[]
  comments: SandboxPost[]
  /** Visitors' comments and the replies to them, oldest first: neither hidden nor deleted (nor under such a comment). */
  conversation: SandboxComment[]
  /** The username of the post's account, as a network's page names its author; null when the account is gone. */
  username: string | null
}
