import type { SandboxComment } from '../../domain/sandbox-comments'
import type { SandboxPost, SandboxStore, SandboxThread } from '../../domain/sandbox-posts'

/** Most comments a post's page shows (the oldest first). */
const PAGE_COMMENTS = 500

/** Comments the public sees: none hidden or deleted, and none under a comment the public does not see. */
function visible(all: SandboxComment[]): SandboxComment[] {
  const shown = new Set<string>()
  const out: SandboxComment[] = []
  for (const comment of all) {
    if (comment.hidden) continue
    if (comment.replyToId !== null && !shown.has(comment.replyToId)) continue
    shown.add(comment.id)
    out.push(comment)
  }
  return out
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
  const all = await store.comments.listForPost(post.id, { since: null, after: null, limit: PAGE_COMMENTS })
  return {
    post,
    parts,
    comments: replies.filter((r) => r.kind === 'comment'),
    conversation: visible(all),
    username,
  }
}
