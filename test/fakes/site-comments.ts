/**
 * The site fake's comments, from the REST API handbook's Comments reference: `GET comments`
 * (`post`, `parent`, `after`, `order`, `orderby`, `status` for a moderator, `page`/`per_page` with
 * `X-WP-Total` and `X-WP-TotalPages`, 400 `rest_post_invalid_page_number` past the last page),
 * `POST comments` (`post`, `parent`, `content`; the signed-in user is the author), `POST comments/{id}`
 * (`status`: `hold`, `approved`...), `DELETE comments/{id}` (to the trash, `force=true` for good;
 * 410 `rest_already_trashed`, 404 `rest_comment_invalid_id`).
 */
import type { FakeReply, FakeRequest } from './fake-server'

export interface SiteComment {
  id: number
  post: number
  parent: number
  author: number
  author_name: string
  content: string
  date: string
  status: 'approved' | 'hold' | 'spam' | 'trash'
}

const wpError = (status: number, code: string, message: string): FakeReply => ({
  status,
  json: { code, message, data: { status } },
})

interface Ctx {
  posts: Array<{ id: number; status: string; slug: string }>
  comments: SiteComment[]
  now: () => Date
  nextId: () => number
  user: { id: number; name: string }
  origin: string
}

const view = (c: SiteComment, origin: string, edit: boolean) => ({
  id: c.id,
  post: c.post,
  parent: c.parent,
  author: c.author,
  author_name: c.author_name,
  author_avatar_urls: {
    '24': `https://secure.gravatar.com/avatar/${c.id}?s=24`,
    '96': `https://secure.gravatar.com/avatar/${c.id}?s=96`,
  },
  date: c.date.slice(0, 19),
  date_gmt: c.date.slice(0, 19),
  content: {
    rendered: `<p>${c.content.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>\n`,
    ...(edit ? { raw: c.content } : {}),
  },
  link: `${origin}/?p=${c.post}#comment-${c.id}`,
  status: c.status,
  type: 'comment',
})

/** A page of a list: `page` and `per_page` (1 to 100), with the totals in headers. */
export function wpPage<T>(req: FakeRequest, all: T[]): { items: T[]; headers: Record<string, string> } | FakeReply {
  const perPage = Number(req.query.get('per_page') ?? 10)
  const page = Number(req.query.get('page') ?? 1)
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
    return wpError(400, 'rest_invalid_param', 'Invalid parameter(s): per_page')
  const pages = Math.max(1, Math.ceil(all.length / perPage))
  if (!Number.isInteger(page) || page < 1 || (page > pages && all.length > 0))
    return wpError(
      400,
      'rest_post_invalid_page_number',
      'The page number requested is larger than the number of pages available.',
    )
  return {
    items: all.slice((page - 1) * perPage, page * perPage),
    headers: { 'x-wp-total': String(all.length), 'x-wp-totalpages': String(pages) },
  }
}

export function commentsRoute(ctx: Ctx, req: FakeRequest, path: string): FakeReply | null {
  const q = req.query
  const edit = q.get('context') === 'edit'
  if (path === 'comments' && req.method === 'GET') {
    const postId = Number(q.get('post'))
    if (q.get('post') !== null && !ctx.posts.some((p) => p.id === postId))
      return wpError(400, 'rest_invalid_param', 'Invalid parameter(s): post')
    const status = q.get('status') ?? 'approve'
    const wanted = status === 'approve' ? 'approved' : status === 'all' ? null : status
    const after = q.get('after') ? Date.parse(q.get('after')!) : null
    let list = ctx.comments
      .filter((c) => q.get('post') === null || c.post === postId)
      .filter((c) => (wanted === null ? c.status === 'approved' || c.status === 'hold' : c.status === wanted))
      .filter((c) => after === null || Date.parse(c.date) > after)
      .sort((a, b) => Date.parse(a.date) - Date.parse(b.date) || a.id - b.id)
    if (q.get('order') !== 'asc') list = list.reverse()
    const page = wpPage(req, list)
    if (!('items' in page)) return page
    return { json: page.items.map((c) => view(c, ctx.origin, edit)), headers: page.headers }
  }
  if (path === 'comments' && req.method === 'POST') {
    const b = req.json()
    const post = ctx.posts.find((p) => p.id === Number(b.post))
    if (!post || post.status === 'trash')
      return wpError(
        403,
        'rest_comment_invalid_post_id',
        'Sorry, you are not allowed to create this comment without a post.',
      )
    const parent = Number(b.parent ?? 0)
    if (parent && !ctx.comments.some((c) => c.id === parent && c.post === post.id && c.status !== 'trash'))
      return wpError(400, 'rest_comment_invalid_parent', 'Invalid comment parent ID.')
    if (typeof b.content !== 'string' || !b.content.trim())
      return wpError(400, 'rest_comment_content_invalid', 'Invalid comment content.')
    const comment: SiteComment = {
      id: ctx.nextId(),
      post: post.id,
      parent,
      author: ctx.user.id,
      author_name: ctx.user.name,
      content: b.content,
      date: ctx.now().toISOString(),
      status: 'approved',
    }
    ctx.comments.push(comment)
    return { status: 201, json: view(comment, ctx.origin, true) }
  }
  const one = /^comments\/(\d+)$/.exec(path)
  if (!one) return null
  const comment = ctx.comments.find((c) => c.id === Number(one[1]))
  if (!comment) return wpError(404, 'rest_comment_invalid_id', 'Invalid comment ID.')
  if (req.method === 'POST') {
    const status = req.json().status
    if (comment.status === 'trash') return wpError(404, 'rest_comment_invalid_id', 'Invalid comment ID.')
    if (!['approved', 'approve', 'hold', 'spam'].includes(status))
      return wpError(400, 'rest_comment_failed_edit', 'Updating comment status failed.')
    comment.status = status === 'approve' ? 'approved' : status
    return { json: view(comment, ctx.origin, true) }
  }
  if (req.method === 'DELETE') {
    if (q.get('force') === 'true') {
      ctx.comments.splice(ctx.comments.indexOf(comment), 1)
      return { json: { deleted: true, previous: view(comment, ctx.origin, true) } }
    }
    if (comment.status === 'trash') return wpError(410, 'rest_already_trashed', 'The comment has already been trashed.')
    comment.status = 'trash'
    return { json: view(comment, ctx.origin, true) }
  }
  return null
}
