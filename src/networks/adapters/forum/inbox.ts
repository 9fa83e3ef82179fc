/**
 * The forum network's (Reddit) side of the inbox, from https://www.reddit.com/dev/api: the
 * account's submissions (GET /user/{name}/submitted, `sort=new`, paged by `after`), a
 * submission's comment tree (GET /comments/{article}; the ids its `more` stubs hold are read on
 * the next pages through GET /api/morechildren, 100 a call), mentions (GET /message/mentions, paged
 * by `after`), a reply (POST /api/comment with `thing_id`), an upvote (POST /api/vote, `dir=1`) and
 * deleting the account's own comment (POST /api/del). Hiding someone's comment is a moderator's
 * removal, not offered here. The budget headers (X-Ratelimit-*) are honoured by the client (api.ts).
 */
import type { NetworkAdapter } from '../../adapter'
import type {
  AccountCallInput,
  CommentPage,
  ListCommentsInput,
  NetworkComment,
  NetworkPostPage,
} from '../../inbox-adapter'
import { CommentGone } from '../../inbox-adapter'
import { createdId, NetworkFailure } from '../../http'
import { metric, NO_FIGURES } from '../../metrics'
import { listingOf, NETWORK, SITE, type ForumCall, type ForumContext } from './api'

/** Items per listing page, and ids per morechildren call (the network's maxima). */
const PAGE = '100'
const MORE_BATCH = 100
/** `json.errors` codes by which the network says the parent is gone. */
const GONE = /DELETED_COMMENT|DELETED_LINK|NO_THING_ID|TOO_OLD/

const fullname = (kind: 't1' | 't3', id: string) => (id.startsWith(`${kind}_`) ? id : `${kind}_${id}`)
const bare = (id: string) => id.replace(/^t[0-9]_/, '')
const link = (permalink: unknown) => (typeof permalink === 'string' && permalink ? `${SITE}${permalink}` : null)
const removed = (c: any) => c.body === '[deleted]' || c.body === '[removed]'

/** A call whose "not found" (404, or the parent's deletion in `json.errors`) is `CommentGone`. */
async function onThing(call: ForumCall, ...args: Parameters<ForumCall>): Promise<any> {
  try {
    return await call(...args)
  } catch (err) {
    if (
      err instanceof NetworkFailure &&
      err.kind === 'rejected' &&
      (GONE.test(err.message) || /HTTP 404|Not Found/.test(err.message))
    )
      throw new CommentGone(`${NETWORK}: the post or comment no longer exists.`)
    throw err
  }
}

function commentOf(c: any, me: string): NetworkComment {
  const parent = String(c.parent_id ?? '')
  const post = c.link_id ? String(c.link_id) : /\/comments\/([a-z0-9]+)\//i.exec(String(c.context ?? ''))?.[1]
  return {
    externalId: String(c.name ?? fullname('t1', String(c.id))),
    parentExternalId: parent.startsWith('t1_') ? parent : null,
    postExternalId: post ? fullname('t3', post) : null,
    author: {
      externalId: c.author_fullname ?? null,
      name: String(c.author ?? 'unknown'),
      handle: c.author ? `u/${c.author}` : null,
      avatarUrl: null,
    },
    text: String(c.body ?? ''),
    createdAt: new Date(Number(c.created_utc) * 1000),
    permalink: link(c.permalink ?? c.context),
    fromAccount: String(c.author ?? '').toLowerCase() === me.toLowerCase(),
    hidden: null,
  }
}

/** Comments of a tree, depth first, and the ids its `more` stubs hold. */
function walk(children: any[], me: string, out: { comments: NetworkComment[]; more: string[] }) {
  for (const child of children) {
    if (child?.kind === 'more') out.more.push(...(child.data?.children ?? []).map(String))
    if (child?.kind !== 't1') continue
    if (!removed(child.data)) out.comments.push(commentOf(child.data, me))
    walk(child.data.replies?.data?.children ?? [], me, out)
  }
}

export function forumInbox(
  client: (ctx: ForumContext) => ForumCall,
): Required<
  Pick<
    NetworkAdapter,
    'listPosts' | 'listComments' | 'listMentions' | 'replyToComment' | 'deleteComment' | 'likeComment'
  >
> {
  const me = (input: AccountCallInput) => String(input.credentials.username ?? '')
  return {
    async listPosts(input): Promise<NetworkPostPage> {
      const query: Record<string, string> = { sort: 'new', limit: PAGE, raw_json: '1' }
      if (input.cursor) query.after = input.cursor
      const body = await client(input)('GET', `/user/${encodeURIComponent(me(input))}/submitted`, { query })
      const { items, after } = listingOf(body)
      const fresh = items.filter((p) => Number(p.created_utc) * 1000 >= input.since.getTime())
      const posts = fresh.map((p) => ({
        platformPostId: String(p.name),
        permalink: link(p.permalink),
        text: [p.title, p.selftext].filter((s) => typeof s === 'string' && s).join('\n\n'),
        publishedAt: new Date(Number(p.created_utc) * 1000),
        mediaUrls: typeof p.url === 'string' && /\.(jpe?g|png|gif|webp)$/i.test(p.url) ? [p.url] : [],
        metrics: {
          ...NO_FIGURES,
          likes: metric(p.score),
          comments: metric(p.num_comments),
          views: metric(p.view_count),
        },
      }))
      return { posts, nextCursor: fresh.length === items.length ? after : null }
    },

    async listComments(input: ListCommentsInput): Promise<CommentPage> {
      const call = client(input)
      const out = { comments: [] as NetworkComment[], more: [] as string[] }
      const linkId = fullname('t3', input.post.platformPostId)
      if (!input.cursor) {
        const body = await onThing(call, 'GET', `/comments/${encodeURIComponent(bare(linkId))}`, {
          query: { sort: 'new', limit: '500', raw_json: '1' },
        })
        const tree = Array.isArray(body) ? body[1] : null
        walk(tree?.data?.children ?? [], me(input), out)
      } else {
        const ids = input.cursor.split(',')
        const body = await onThing(call, 'GET', '/api/morechildren', {
          query: {
            api_type: 'json',
            link_id: linkId,
            children: ids.slice(0, MORE_BATCH).join(','),
            sort: 'new',
            raw_json: '1',
          },
        })
        // morechildren answers a flat list; each comment names its parent.
        walk(body?.json?.data?.things ?? [], me(input), out)
        out.more.unshift(...ids.slice(MORE_BATCH))
      }
      const since = input.since?.getTime() ?? -Infinity
      const comments = out.comments.filter((c) => c.createdAt.getTime() > since)
      return { comments, nextCursor: out.more.length ? out.more.join(',') : null }
    },

    async listMentions(input): Promise<CommentPage> {
      const query: Record<string, string> = { limit: PAGE, raw_json: '1' }
      if (input.cursor) query.after = input.cursor
      const { items, after } = listingOf(await client(input)('GET', '/message/mentions', { query }))
      const since = input.since?.getTime() ?? -Infinity
      const fresh = items.filter((m) => Number(m.created_utc) * 1000 > since)
      const comments = fresh.filter((m) => m.was_comment !== false && !removed(m)).map((m) => commentOf(m, me(input)))
      return { comments, nextCursor: fresh.length === items.length ? after : null }
    },

    async replyToComment(input) {
      const body = await onThing(client(input), 'POST', '/api/comment', {
        form: { api_type: 'json', thing_id: fullname('t1', input.comment.externalId), text: input.text },
      })
      const made = body?.json?.data?.things?.[0]?.data ?? {}
      const id = createdId(made.name, NETWORK, body, 'reply')
      return { externalId: id, permalink: link(made.permalink) }
    },

    async likeComment(input) {
      await onThing(client(input), 'POST', '/api/vote', {
        form: { id: fullname('t1', input.comment.externalId), dir: '1' },
      })
    },

    /** Only the account's own comment (the network answers anyone else's with a success that deletes nothing). */
    async deleteComment(input) {
      const call = client(input)
      const id = fullname('t1', input.comment.externalId)
      const found = listingOf(await call('GET', '/api/info', { query: { id, raw_json: '1' } })).items[0]
      if (!found || removed(found)) throw new CommentGone(`${NETWORK}: the comment no longer exists.`)
      if (String(found.author ?? '').toLowerCase() !== me(input).toLowerCase())
        throw new NetworkFailure('rejected', `${NETWORK}: only the account's own comments can be deleted.`)
      await call('POST', '/api/del', { form: { id } })
    },
  }
}
