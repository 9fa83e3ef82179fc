/**
 * The microblog fake's inbox side, from the X API v2 reference: the user's timeline paged by
 * `pagination_token` (`exclude`, `start_time`, `max_results` 5..100, `includes.media`), the recent
 * search by `conversation_id:` (`max_results` 10..100, `start_time` at most 7 days back, newest
 * first, `next_token`, `includes.users`), the mentions timeline, hide/unhide a reply
 * (PUT /2/tweets/:id/hidden, only in a conversation the user started), likes
 * (POST /2/users/:id/likes). Errors are the network's problem bodies.
 */
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'
import type { FakeTweet } from './microblog'

export interface FakeUser {
  id: string
  username: string
  name: string
}

interface Ctx {
  userId: string
  username: string
  tweets: FakeTweet[]
  now: () => Date
  /** The main fake's rendering of a post (text escaped, media links, entities, metrics). */
  tweetJson: (t: FakeTweet, fields: string) => Record<string, unknown>
  guard: (
    h: (req: FakeRequest, params: string[]) => FakeReply,
  ) => (req: FakeRequest, params: string[]) => Promise<FakeReply>
}

const problem = (status: number, title: string, detail: string, type = 'about:blank'): FakeReply => ({
  status,
  json: { title, detail, type, status },
})
const invalid = (message: string): FakeReply => ({
  status: 400,
  json: {
    errors: [{ parameters: {}, message }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: 'https://api.twitter.com/2/problems/invalid-request',
  },
})
const notFound = (id: string) =>
  problem(
    404,
    'Not Found Error',
    `Could not find tweet with id: [${id}].`,
    'https://api.twitter.com/2/problems/resource-not-found',
  )

const token = (offset: number) => Buffer.from(`o${offset}`).toString('base64url')
const offsetOf = (value: string | null) => (value ? Number(Buffer.from(value, 'base64url').toString().slice(1)) : 0)

export function microblogInbox(ctx: Ctx) {
  const users = new Map<string, FakeUser>([[ctx.userId, { id: ctx.userId, username: ctx.username, name: 'Acme' }]])
  const hidden = new Set<string>()
  const likes = new Set<string>()
  const byId = (id: string) => ctx.tweets.find((t) => t.id === id)
  const conversationOf = (t: FakeTweet): string => {
    let cur = t
    while (cur.replyTo && byId(cur.replyTo)) cur = byId(cur.replyTo)!
    return cur.replyTo ?? cur.id
  }
  const json = (t: FakeTweet, fields: string) => {
    const out = ctx.tweetJson(t, fields)
    if (fields.includes('author_id')) out.author_id = t.authorId
    if (fields.includes('conversation_id')) out.conversation_id = conversationOf(t)
    if (fields.includes('attachments') && t.mediaIds.length)
      out.attachments = { media_keys: t.mediaIds.map((m) => `3_${m}`) }
    return out
  }
  /** One page, newest first; `includes` as the expansions asked. */
  const page = (req: FakeRequest, list: FakeTweet[], tokenName: string, min: number): FakeReply => {
    const max = Number(req.query.get('max_results') ?? 10)
    if (!Number.isInteger(max) || max < min || max > 100)
      return invalid(`The \`max_results\` query parameter value [${max}] is not between ${min} and 100`)
    const start = req.query.get('start_time')
    const sorted = list
      .filter((t) => !start || t.createdAt >= start)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
    const from = offsetOf(req.query.get(tokenName))
    const slice = sorted.slice(from, from + max)
    const fields = req.query.get('tweet.fields') ?? ''
    const expansions = req.query.get('expansions') ?? ''
    if (!slice.length) return { json: { meta: { result_count: 0 } } }
    const includes: Record<string, unknown> = {}
    if (expansions.includes('author_id'))
      includes.users = [...new Set(slice.map((t) => t.authorId))].map((id) => {
        const u = users.get(id) ?? { id, username: `user${id.slice(-4)}`, name: `User ${id.slice(-4)}` }
        return { ...u, profile_image_url: `https://pbs.twimg.com/profile_images/${id}/a_normal.jpg` }
      })
    if (expansions.includes('attachments.media_keys'))
      includes.media = slice.flatMap((t) =>
        t.mediaIds.map((m) => ({ media_key: `3_${m}`, type: 'photo', url: `https://pbs.twimg.com/media/${m}.jpg` })),
      )
    const more = from + max < sorted.length
    return {
      json: {
        data: slice.map((t) => json(t, fields)),
        includes,
        meta: {
          result_count: slice.length,
          newest_id: slice[0]!.id,
          oldest_id: slice.at(-1)!.id,
          ...(more ? { next_token: token(from + max) } : {}),
        },
      },
    }
  }

  const routes: FakeRoute[] = [
    [
      'GET',
      /^\/2\/users\/(\d+)\/tweets$/,
      ctx.guard((req, [id]) => {
        const exclude = (req.query.get('exclude') ?? '').split(',')
        const list = ctx.tweets.filter((t) => t.authorId === id && !(exclude.includes('replies') && t.replyTo))
        return page(req, list, 'pagination_token', 5)
      }),
    ],
    [
      'GET',
      '/2/tweets/search/recent',
      ctx.guard((req) => {
        const q = /^conversation_id:(\d+)$/.exec(req.query.get('query') ?? '')
        if (!q) return invalid('The `query` query parameter can not be empty')
        const start = req.query.get('start_time')
        if (start && Date.parse(start) < ctx.now().getTime() - 7 * 24 * 3600 * 1000)
          return invalid(
            `Invalid 'start_time':'${start}'. 'start_time' must be on or after ${new Date(ctx.now().getTime() - 7 * 24 * 3600 * 1000).toISOString()}`,
          )
        const list = ctx.tweets.filter((t) => t.id !== q[1] && conversationOf(t) === q[1])
        return page(req, list, 'next_token', 10)
      }),
    ],
    [
      'GET',
      /^\/2\/users\/(\d+)\/mentions$/,
      ctx.guard((req, [id]) => {
        const who = users.get(id!)
        const list = ctx.tweets.filter((t) => t.authorId !== id && who && t.text.includes(`@${who.username}`))
        return page(req, list, 'pagination_token', 5)
      }),
    ],
    [
      'PUT',
      /^\/2\/tweets\/(\d+)\/hidden$/,
      ctx.guard((req, [id]) => {
        const t = byId(id!)
        if (!t) return notFound(id!)
        const root = byId(conversationOf(t))
        if (!t.replyTo || root?.authorId !== ctx.userId)
          return problem(
            403,
            'Forbidden',
            'You can only hide or unhide replies to conversations you authored.',
            'https://api.twitter.com/2/problems/client-forbidden',
          )
        const body = req.json()
        if (typeof body.hidden !== 'boolean') return invalid('`hidden` must be a boolean')
        if (body.hidden) hidden.add(id!)
        else hidden.delete(id!)
        return { json: { data: { hidden: body.hidden } } }
      }),
    ],
    [
      'POST',
      /^\/2\/users\/(\d+)\/likes$/,
      ctx.guard((req, [id]) => {
        if (id !== ctx.userId) return problem(403, 'Forbidden', 'You are not permitted to perform this action.')
        const tweetId = String(req.json().tweet_id ?? '')
        if (!tweetId) return invalid('`tweet_id` is required')
        if (!byId(tweetId)) return notFound(tweetId)
        likes.add(tweetId)
        return { json: { data: { liked: true } } }
      }),
    ],
  ]
  return { routes, users, hidden, likes }
}
