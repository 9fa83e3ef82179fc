/**
 * BLOG_NET's inbox, read-only (Tumblr API v2 documents no call to write, hide or delete a reply).
 * Posts: the blog's posts (`GET /v2/blog/{id}/posts?npf=true`, newest first, 20 a page, the next
 * page from `_links.next`'s `offset`). Comments: a post's replies, the notes of type `reply` in
 * `conversation` mode (`GET /v2/blog/{id}/notes`, newest first, the next page from
 * `_links.next`'s `before_timestamp`). A note has no id of its own: the replier's blog and the
 * note's time name it. Replies on this network are flat, so each answers the post.
 */
import type { CommentPage, ListCommentsInput, ListPostsInput, NetworkComment, NetworkPostPage } from '../../adapter'
import { NetworkFailure } from '../../http'
import { CommentGone } from '../../inbox-adapter'
import { blogClient, blogIdOf, blogPath, NETWORK } from './api'
import { NO_FIGURES } from '../../metrics'

/** Posts per page (the reference's maximum). */
export const POSTS_PER_PAGE = 20

type Item = Record<string, any>

/** The next page's query parameter `name` from the envelope's `_links.next`, if there is one. */
const nextParam = (answer: Item, name: string): string | null => {
  const value = answer?._links?.next?.query_params?.[name]
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return ''
  return content
    .filter((b: Item) => b.type === 'text' && typeof b.text === 'string')
    .map((b: Item) => b.text as string)
    .join('\n')
}

function mediaOf(content: unknown): string[] {
  if (!Array.isArray(content)) return []
  return content.flatMap((b: Item) => {
    const media = Array.isArray(b.media) ? b.media[0] : b.media
    return (b.type === 'image' || b.type === 'video') && typeof media?.url === 'string' ? [media.url as string] : []
  })
}

export async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const answer = await blogClient(input)('GET', blogPath(input.credentials, '/posts'), {
    query: { npf: 'true', limit: String(POSTS_PER_PAGE), offset: input.cursor ?? '0' },
  })
  const list = (Array.isArray(answer.posts) ? answer.posts : []) as Item[]
  const sinceSec = input.since.getTime() / 1000
  const recent = list.filter((p) => Number(p.timestamp) >= sinceSec)
  const posts = recent.map((p) => ({
    platformPostId: String(p.id_string ?? p.id),
    permalink: typeof p.post_url === 'string' ? p.post_url : null,
    text: textOf(p.content),
    publishedAt: new Date(Number(p.timestamp) * 1000),
    mediaUrls: mediaOf(p.content),
    metrics: { ...NO_FIGURES },
  }))
  const next = recent.length === list.length ? nextParam(answer, 'offset') : null
  return { posts, nextCursor: next }
}

export async function listComments(input: ListCommentsInput): Promise<CommentPage> {
  const postId = input.post.platformPostId
  let answer: Item
  try {
    answer = await blogClient(input)('GET', blogPath(input.credentials, '/notes'), {
      query: { id: postId, mode: 'conversation', ...(input.cursor ? { before_timestamp: input.cursor } : {}) },
    })
  } catch (err) {
    if (err instanceof NetworkFailure && /HTTP 404|not found/i.test(err.message))
      throw new CommentGone(`${NETWORK}: the post no longer exists.`)
    throw err
  }
  const me = blogIdOf(input.credentials)
  const notes = (Array.isArray(answer.notes) ? answer.notes : []) as Item[]
  const sinceSec = input.since ? input.since.getTime() / 1000 : null
  const comments: NetworkComment[] = []
  let reachedSince = false
  for (const n of notes) {
    if (sinceSec !== null && Number(n.timestamp) <= sinceSec) {
      reachedSince = true
      break
    }
    if (n.type !== 'reply' || typeof n.reply_text !== 'string') continue
    const who = String(n.blog_uuid ?? n.blog_name ?? 'unknown')
    comments.push({
      externalId: `${who}:${String(n.timestamp)}`,
      parentExternalId: null,
      postExternalId: postId,
      author: {
        externalId: typeof n.blog_uuid === 'string' ? n.blog_uuid : null,
        name: String(n.blog_name ?? 'unknown'),
        handle: typeof n.blog_name === 'string' ? n.blog_name : null,
        avatarUrl: null,
      },
      text: n.reply_text,
      createdAt: new Date(Number(n.timestamp) * 1000),
      permalink: input.post.permalink,
      fromAccount: n.blog_uuid === me || n.blog_name === input.credentials.blogName,
      hidden: null,
    })
  }
  return { comments, nextCursor: reachedSince ? null : nextParam(answer, 'before_timestamp') }
}
