/**
 * DEVBLOG_NET's inbox, read-only (Forem API v1 has no endpoint to write, hide, delete or react to
 * a comment). Posts: the account's published articles (`GET /api/articles/me/published`, newest
 * first, `page`/`per_page`) with reactions, comments and page views. Comments: an article's
 * threads (`GET /api/comments?a_id=`), each top-level comment with its nested `children`, paged
 * over the top-level comments; an article the network no longer has answers 404.
 */
import type { CommentPage, ListCommentsInput, ListPostsInput, NetworkComment, NetworkPostPage } from '../../adapter'
import { NetworkFailure } from '../../http'
import { plainText } from '../../html-text'
import { CommentGone } from '../../inbox-adapter'
import { metric, NO_FIGURES } from '../../metrics'
import { call, NETWORK, PAGE_SIZE, sessionOf } from './api'

/** Top-level comments per page (each comes with its whole thread). */
export const THREADS_PER_PAGE = 50

type Item = Record<string, any>

export async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const page = Number(input.cursor ?? 1)
  const answer = await call(sessionOf(input), `articles/me/published?page=${page}&per_page=${PAGE_SIZE}`)
  const list = (Array.isArray(answer.body) ? answer.body : []) as Item[]
  const recent = list.filter((a) => typeof a.published_at === 'string' && new Date(a.published_at) >= input.since)
  const posts = recent.map((a) => ({
    platformPostId: String(a.id),
    permalink: typeof a.url === 'string' ? a.url : null,
    text: typeof a.title === 'string' ? a.title : '',
    publishedAt: new Date(a.published_at as string),
    mediaUrls: typeof a.cover_image === 'string' ? [a.cover_image] : [],
    metrics: {
      ...NO_FIGURES,
      likes: metric(a.public_reactions_count),
      comments: metric(a.comments_count),
      views: metric(a.page_views_count),
    },
  }))
  const more = list.length === PAGE_SIZE && recent.length === list.length
  return { posts, nextCursor: more ? String(page + 1) : null }
}

/** The comment's page on the network: `<origin>/<author>/comment/<id_code>`. */
function permalinkOf(postUrl: string | null, c: Item): string | null {
  if (!postUrl || typeof c.user?.username !== 'string') return null
  try {
    return `${new URL(postUrl).origin}/${encodeURIComponent(c.user.username)}/comment/${encodeURIComponent(String(c.id_code))}`
  } catch {
    return null
  }
}

function flatten(
  items: Item[],
  at: { parent: string | null; postId: string; postUrl: string | null; me: string },
  out: NetworkComment[],
): void {
  for (const c of items) {
    const id = String(c.id_code)
    out.push({
      externalId: id,
      parentExternalId: at.parent,
      postExternalId: at.postId,
      author: {
        externalId: c.user?.user_id !== undefined ? String(c.user.user_id) : null,
        name: String(c.user?.name ?? c.user?.username ?? 'unknown'),
        handle: typeof c.user?.username === 'string' ? c.user.username : null,
        avatarUrl: typeof c.user?.profile_image_90 === 'string' ? c.user.profile_image_90 : null,
      },
      text: plainText(String(c.body_html ?? '')),
      createdAt: new Date(String(c.created_at)),
      permalink: permalinkOf(at.postUrl, c),
      fromAccount: c.user?.username === at.me,
      hidden: null,
    })
    flatten(Array.isArray(c.children) ? c.children : [], { ...at, parent: id }, out)
  }
}

export async function listComments(input: ListCommentsInput): Promise<CommentPage> {
  const session = sessionOf(input)
  const page = Number(input.cursor ?? 1)
  const postId = input.post.platformPostId
  let threads: Item[]
  try {
    const answer = await call(
      session,
      `comments?a_id=${encodeURIComponent(postId)}&page=${page}&per_page=${THREADS_PER_PAGE}`,
    )
    threads = Array.isArray(answer.body) ? answer.body : []
  } catch (err) {
    if (err instanceof NetworkFailure && /HTTP 404|not found/.test(err.message))
      throw new CommentGone(`${NETWORK}: the article no longer exists.`)
    throw err
  }
  const me = String((await call(session, 'users/me')).body?.username ?? '')
  const comments: NetworkComment[] = []
  flatten(threads, { parent: null, postId, postUrl: input.post.permalink, me }, comments)
  const fresh = input.since ? comments.filter((c) => c.createdAt > input.since!) : comments
  return { comments: fresh, nextCursor: threads.length === THREADS_PER_PAGE ? String(page + 1) : null }
}
