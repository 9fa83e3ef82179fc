import type { SandboxPost, SandboxStore } from '../../infra/sandbox-store'

/** A post of the simulated network as its page shows it: the post, its thread parts in order, its comments. */
export interface SandboxThread {
  post: SandboxPost
  parts: SandboxPost[]
  comments: SandboxPost[]
  /** The username of the post's account, as a network's page names its author; null when the account is gone. */
  username: string | null
}

/** Null for an id the network never issued (or deleted). Parts chain: each answers the one before. */
export async function loadSandboxThread(store: SandboxStore, id: string): Promise<SandboxThread | null> {
  const post = await store.get(id)
  if (!post) return null
  const replies = await store.replies(post.id)
  const parts: SandboxPost[] = []
  let next = replies.find((r) => r.kind === 'part')
  while (next) {
    parts.push(next)
    next = (await store.replies(next.id)).find((r) => r.kind === 'part')
  }
  const username = await store.accountUsername(post.accountId)
  return { post, parts, comments: replies.filter((r) => r.kind === 'comment'), username }
}
