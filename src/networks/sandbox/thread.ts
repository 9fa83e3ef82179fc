import type { SandboxPost, SandboxStore, SandboxThread } from '../../domain/sandbox-posts'

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
