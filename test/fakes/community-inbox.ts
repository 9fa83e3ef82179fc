/**
 * The community fake's inbox side (Lemmy 0.19, API v3, as lemmy-js-client's types and the
 * server's handlers describe it): GET /api/v3/comment/list (`post_id`, `sort=New`, `limit` up to
 * 50, `page`), POST /api/v3/comment (`content`, `post_id`, `parent_id`; a reply keeps the
 * parent's `path`), POST /api/v3/comment/like, POST /api/v3/comment/delete (only the creator:
 * 400 `no_comment_edit_allowed`), GET /api/v3/user/mention. Comments answer as CommentView
 * (comment, creator, post, community, counts). Errors are `{ "error": "<code>" }`.
 */
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'

export interface FakeComment {
  id: number
  postId: number
  creator: { id: number; name: string; display_name: string }
  content: string
  path: string
  published: string
  deleted: boolean
  score: number
  myVote: number | null
}

interface Ctx {
  url: () => string
  me: () => { id: number; name: string; display_name: string }
  postExists: (id: number) => boolean
  now: () => Date
  user: (h: (req: FakeRequest) => FakeReply) => (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>
}

const PAGE_MAX = 50
const error = (code: string, status = 400): FakeReply => ({ status, json: { error: code } })
const stamp = (d: Date) => d.toISOString().replace('Z', '000Z')

export function communityInbox(ctx: Ctx) {
  const comments: FakeComment[] = []
  const mentions: Array<{ id: number; commentId: number }> = []
  let serial = 5000
  const view = (c: FakeComment) => ({
    comment: {
      id: c.id,
      creator_id: c.creator.id,
      post_id: c.postId,
      content: c.deleted ? '' : c.content,
      removed: false,
      published: c.published,
      deleted: c.deleted,
      ap_id: `${ctx.url()}/comment/${c.id}`,
      local: true,
      path: c.path,
      distinguished: false,
      language_id: 0,
    },
    creator: { ...c.creator, actor_id: `${ctx.url()}/u/${c.creator.name}`, local: true, banned: false, deleted: false },
    post: { id: c.postId },
    counts: {
      comment_id: c.id,
      score: c.score,
      upvotes: c.score,
      downvotes: 0,
      child_count: 0,
      published: c.published,
    },
    my_vote: c.myVote,
  })
  const paged = (req: FakeRequest, list: FakeComment[]) => {
    const limit = Math.min(Number(req.query.get('limit') ?? 10), PAGE_MAX)
    const page = Number(req.query.get('page') ?? 1)
    return [...list]
      .sort((a, b) => b.published.localeCompare(a.published) || b.id - a.id)
      .slice((page - 1) * limit, page * limit)
  }

  const add = (
    postId: number,
    creator: FakeComment['creator'],
    content: string,
    parentId: number | null,
    published: string,
  ) => {
    const parent = parentId === null ? null : comments.find((c) => c.id === parentId)!
    const id = ++serial
    const c: FakeComment = {
      id,
      postId,
      creator,
      content,
      path: `${parent ? parent.path : '0'}.${id}`,
      published,
      deleted: false,
      score: 1,
      myVote: null,
    }
    comments.push(c)
    if (creator.id !== ctx.me().id && content.includes(`@${ctx.me().name}`))
      mentions.push({ id: 700 + mentions.length, commentId: id })
    return c
  }

  const routes: FakeRoute[] = [
    [
      'GET',
      '/api/v3/comment/list',
      (req) => {
        const postId = Number(req.query.get('post_id'))
        if (!ctx.postExists(postId)) return error('couldnt_find_post', 404)
        return {
          json: {
            comments: paged(
              req,
              comments.filter((c) => c.postId === postId),
            ).map(view),
          },
        }
      },
    ],
    [
      'POST',
      '/api/v3/comment',
      ctx.user((req) => {
        const body = req.json()
        if (typeof body.content !== 'string' || !body.content.trim()) return error('invalid_body_field')
        if (!ctx.postExists(body.post_id)) return error('couldnt_find_post', 404)
        const parent = body.parent_id === undefined ? null : comments.find((c) => c.id === body.parent_id)
        if (body.parent_id !== undefined && !parent) return error('couldnt_find_comment', 404)
        if (parent?.deleted) return error('couldnt_find_comment', 404)
        if (parent && parent.postId !== body.post_id) return error('couldnt_create_comment')
        const c = add(body.post_id, ctx.me(), body.content, parent?.id ?? null, stamp(ctx.now()))
        return { json: { comment_view: view(c), recipient_ids: [] } }
      }),
    ],
    [
      'POST',
      '/api/v3/comment/like',
      ctx.user((req) => {
        const body = req.json()
        const c = comments.find((x) => x.id === body.comment_id && !x.deleted)
        if (!c) return error('couldnt_find_comment', 404)
        if (![-1, 0, 1].includes(body.score)) return error('couldnt_like_comment')
        c.myVote = body.score
        return { json: { comment_view: view(c), recipient_ids: [] } }
      }),
    ],
    [
      'POST',
      '/api/v3/comment/delete',
      ctx.user((req) => {
        const body = req.json()
        const c = comments.find((x) => x.id === body.comment_id)
        if (!c) return error('couldnt_find_comment', 404)
        if (c.creator.id !== ctx.me().id) return error('no_comment_edit_allowed')
        if (c.deleted === body.deleted) return error('couldnt_update_comment')
        c.deleted = body.deleted === true
        return { json: { comment_view: view(c), recipient_ids: [] } }
      }),
    ],
    [
      'GET',
      '/api/v3/user/mention',
      ctx.user((req) => {
        const found = mentions.map((m) => comments.find((c) => c.id === m.commentId)!)
        return {
          json: {
            mentions: paged(req, found).map((c) => ({
              person_mention: {
                id: mentions.find((m) => m.commentId === c.id)!.id,
                recipient_id: ctx.me().id,
                comment_id: c.id,
                read: false,
                published: c.published,
              },
              ...view(c),
            })),
          },
        }
      }),
    ],
  ]
  return { routes, comments, add }
}
