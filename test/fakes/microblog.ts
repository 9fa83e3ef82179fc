/**
 * A loopback stand-in for the microblog network (X API v2), from its documentation: OAuth 2.0
 * bearer tokens (401 problem body when wrong or expired), the token endpoint with rotating
 * refresh tokens, chunked media upload v2 with processing that stays `in_progress` for N status
 * polls, `POST /2/tweets` (duplicate text refused with 403, quotes refused without the plan),
 * the user's timeline, public metrics, delete; `x-rate-limit-*` headers on a 429.
 */
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'
import { microblogInbox, type FakeUser } from './microblog-inbox'
import { oauthFake, type Identity } from './oauth-provider'

export interface FakeTweet {
  id: string
  text: string
  authorId: string
  createdAt: string
  mediaIds: string[]
  replyTo: string | null
  quoteId: string | null
  metrics: {
    retweet_count: number
    reply_count: number
    like_count: number
    quote_count: number
    bookmark_count: number
    impression_count: number
  }
}

export interface FakeMedia {
  id: string
  mediaType: string
  category: string
  totalBytes: number
  segments: Map<number, Buffer>
  finalized: boolean
  /** STATUS polls left before processing succeeds (videos). */
  pollsLeft: number
  failProcessing: boolean
  /** Epoch ms after which the id is refused (`expires_after_secs`). */
  expiresAt: number
}

const problem = (status: number, title: string, detail: string, type = 'about:blank'): FakeReply => ({
  status,
  json: { title, detail, type, status },
})
const unauthorized = () => problem(401, 'Unauthorized', 'Unauthorized', 'about:blank')

export interface MicroblogFakeOptions {
  userId?: string
  username?: string
  accessToken?: string
  refreshToken?: string
  /** When set, the token endpoint demands HTTP Basic with this client. */
  client?: { id: string; secret: string | null }
  /** STATUS polls a video stays `in_progress`. */
  processingPolls?: number
  /** Whether the app's plan allows `quote_tweet_id`. */
  quotesAllowed?: boolean
  /** `expires_after_secs` given for a media id (the docs' finalize example says 86400). */
  mediaLifetimeSec?: number
  /** The network's clock (created_at of posts). */
  now?: () => Date
  /** The user's paid tier, as the user lookup reports it in `subscription_type` (default `None`). */
  subscriptionType?: 'Basic' | 'Premium' | 'PremiumPlus' | 'None'
}

export async function startMicroblogFake(options: MicroblogFakeOptions = {}) {
  const userId = options.userId ?? '1500000000000000001'
  const username = options.username ?? 'acme'
  const validTokens = new Set([options.accessToken ?? 'access-1'])
  const validRefresh = new Set([options.refreshToken ?? 'refresh-1'])
  const tweets: FakeTweet[] = []
  const media = new Map<string, FakeMedia>()
  const failures: FakeReply[] = []
  /** Ids of posts deleted on the network (a reply to one is refused). */
  const deleted = new Set<string>()
  const failOn: Array<{ path: string; reply: FakeReply; afterCreate: boolean; skip: number }> = []
  let seq = 0
  let tokenSeq = 1
  let followers = 1234
  let subscriptionType = options.subscriptionType ?? 'None'
  const now = options.now ?? (() => new Date())
  const lifetime = options.mediaLifetimeSec ?? 86400
  const nextId = () => String(1_800_000_000_000_000_000n + BigInt(++seq))
  /** Who each token issued by a sign-in belongs to (tokens given in the options belong to `userId`). */
  const tokenUsers = new Map<string, Identity>()
  // Hosted connect: authorization code with PKCE, a confidential client with HTTP Basic (docs.x.com).
  const oauth = oauthFake(
    {
      client: options.client ?? { id: 'mb-client', secret: 'mb-secret' },
      clientAuth: 'basic',
      pkce: true,
      expiresIn: 7200,
    },
    (issued) => {
      validTokens.add(issued.accessToken)
      validRefresh.add(issued.refreshToken)
      tokenUsers.set(issued.accessToken, issued.identity)
    },
  )
  oauth.signInAs({ id: userId, username })
  const bearerOf = (req: FakeRequest) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''

  /** The planned answer for this call to `path`, once its skipped calls are used up. */
  const take = (path: string, afterCreate: boolean): FakeReply | null => {
    const i = failOn.findIndex((f) => f.path === path && f.afterCreate === afterCreate)
    if (i < 0) return null
    if (failOn[i]!.skip > 0) {
      failOn[i]!.skip--
      return null
    }
    return failOn.splice(i, 1)[0]!.reply
  }
  const authed = (req: FakeRequest) => {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')
    return m !== null && validTokens.has(m[1]!)
  }
  const guard =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    async (req: FakeRequest, params: string[]) => {
      if (!authed(req)) return unauthorized()
      const planned = take(req.path, false)
      if (planned) return planned
      const next = failures.shift()
      if (next) return next
      return handler(req, params)
    }

  const tweetJson = (t: FakeTweet, fields: string) => {
    const out: Record<string, unknown> = {
      id: t.id,
      text: t.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
      edit_history_tweet_ids: [t.id],
    }
    if (fields.includes('created_at')) out.created_at = t.createdAt
    if (fields.includes('referenced_tweets') && (t.replyTo || t.quoteId)) {
      out.referenced_tweets = [
        ...(t.replyTo ? [{ type: 'replied_to', id: t.replyTo }] : []),
        ...(t.quoteId ? [{ type: 'quoted', id: t.quoteId }] : []),
      ]
    }
    if (t.mediaIds.length) {
      // The network appends a t.co link to the media, and lists it as a url entity.
      const link = `https://t.co/m${t.id.slice(-6)}`
      out.text = `${out.text as string} ${link}`
      if (fields.includes('entities'))
        out.entities = {
          urls: [
            {
              start: 0,
              end: 0,
              url: link,
              expanded_url: `https://x.com/${username}/status/${t.id}/photo/1`,
              display_url: 'pic.x.com/x',
              media_key: `3_${t.mediaIds[0]}`,
            },
          ],
        }
    }
    if (fields.includes('public_metrics')) out.public_metrics = t.metrics
    return out
  }

  const inbox = microblogInbox({ userId, username, tweets, now, tweetJson, guard })
  const server = await startFakeServer(
    [
      ['GET', '/i/oauth2/authorize', (req) => oauth.authorize(req)],
      ['POST', '/2/oauth2/revoke', (req) => oauth.revoke(req)],
      [
        'POST',
        '/2/oauth2/token',
        (req) => {
          const form = req.form()
          if (form.get('grant_type') === 'authorization_code') return oauth.exchange(req)
          if (options.client?.secret) {
            const expected = `Basic ${Buffer.from(`${options.client.id}:${options.client.secret}`).toString('base64')}`
            if (req.headers.authorization !== expected)
              return {
                status: 401,
                json: { error: 'invalid_client', error_description: 'Missing valid authorization header' },
              }
          } else if (options.client && form.get('client_id') !== options.client.id) {
            return {
              status: 400,
              json: { error: 'invalid_request', error_description: 'Missing required parameter [client_id].' },
            }
          }
          if (form.get('grant_type') !== 'refresh_token' || !validRefresh.has(form.get('refresh_token') ?? '')) {
            return {
              status: 400,
              json: { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' },
            }
          }
          validRefresh.delete(form.get('refresh_token')!)
          tokenSeq++
          const access = `access-${tokenSeq}`
          const refresh = `refresh-${tokenSeq}`
          validTokens.add(access)
          validRefresh.add(refresh)
          return {
            json: {
              token_type: 'bearer',
              expires_in: 7200,
              access_token: access,
              scope: 'tweet.read tweet.write users.read media.write offline.access',
              refresh_token: refresh,
            },
          }
        },
      ],
      [
        'GET',
        '/2/users/me',
        guard((req) => {
          const who = tokenUsers.get(bearerOf(req)) ?? { id: userId, username }
          const data: Record<string, unknown> = { id: who.id, name: 'Acme', username: who.username }
          const fields = (req.query.get('user.fields') ?? '').split(',')
          if (fields.includes('subscription_type')) data.subscription_type = subscriptionType
          if ((req.query.get('user.fields') ?? '').includes('public_metrics'))
            data.public_metrics = {
              followers_count: followers,
              following_count: 10,
              tweet_count: tweets.length,
              listed_count: 0,
            }
          return { json: { data } }
        }),
      ],
      [
        'POST',
        '/2/media/upload/initialize',
        guard((req) => {
          const body = req.json()
          if (!body.media_type || !body.total_bytes || !body.media_category)
            return problem(400, 'Invalid Request', 'One or more parameters to your request was invalid.')
          const id = nextId()
          media.set(id, {
            id,
            mediaType: body.media_type,
            category: body.media_category,
            totalBytes: body.total_bytes,
            segments: new Map(),
            finalized: false,
            pollsLeft: body.media_category === 'tweet_video' ? (options.processingPolls ?? 2) : 0,
            failProcessing: false,
            expiresAt: now().getTime() + lifetime * 1000,
          })
          return { json: { data: { id, media_key: `7_${id}`, expires_after_secs: lifetime } } }
        }),
      ],
      [
        'POST',
        /^\/2\/media\/upload\/(\d+)\/append$/,
        guard(async (req, [id]) => {
          const m = media.get(id!)
          if (!m) return problem(400, 'Invalid Request', 'Invalid media_id.')
          const form = await req.formData()
          const file = form.get('media')
          const index = Number(form.get('segment_index'))
          if (!(file instanceof Blob) || !Number.isInteger(index))
            return problem(400, 'Invalid Request', 'media and segment_index are required.')
          m.segments.set(index, Buffer.from(await file.arrayBuffer()))
          return { json: { data: { expires_at: Math.floor(now().getTime() / 1000) + 86400 } } }
        }),
      ],
      [
        'POST',
        /^\/2\/media\/upload\/(\d+)\/finalize$/,
        guard((_req, [id]) => {
          const m = media.get(id!)
          if (!m) return problem(400, 'Invalid Request', 'Invalid media_id.')
          const received = [...m.segments.values()].reduce((n, b) => n + b.byteLength, 0)
          if (received !== m.totalBytes)
            return problem(
              400,
              'Invalid Request',
              `File size mismatch: declared ${m.totalBytes}, received ${received}.`,
            )
          m.finalized = true
          const data: Record<string, unknown> = {
            id,
            media_key: `7_${id}`,
            size: m.totalBytes,
            expires_after_secs: Math.max(0, Math.floor((m.expiresAt - now().getTime()) / 1000)),
          }
          if (m.pollsLeft > 0) data.processing_info = { state: 'pending', check_after_secs: 3 }
          return { json: { data } }
        }),
      ],
      [
        'GET',
        '/2/media/upload',
        guard((req) => {
          const m = media.get(req.query.get('media_id') ?? '')
          if (req.query.get('command') !== 'STATUS' || !m) return problem(400, 'Invalid Request', 'Invalid media_id.')
          if (m.failProcessing)
            return {
              json: {
                data: {
                  id: m.id,
                  processing_info: {
                    state: 'failed',
                    error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video codec.' },
                  },
                },
              },
            }
          if (m.pollsLeft > 0) m.pollsLeft--
          const info =
            m.pollsLeft > 0
              ? { state: 'in_progress', check_after_secs: 5, progress_percent: 50 }
              : { state: 'succeeded', progress_percent: 100 }
          return { json: { data: { id: m.id, media_key: `7_${m.id}`, processing_info: info } } }
        }),
      ],
      [
        'POST',
        '/2/tweets',
        guard((req) => {
          const body = req.json()
          const text: string = body.text ?? ''
          if (body.quote_tweet_id && body.media)
            return problem(
              400,
              'Invalid Request',
              'The following fields are mutually exclusive: media, quote_tweet_id.',
            )
          if (body.quote_tweet_id && options.quotesAllowed === false) {
            return problem(
              403,
              'Forbidden',
              'Quoting this post is not allowed with your current access level.',
              'https://api.twitter.com/2/problems/client-forbidden',
            )
          }
          if (tweets.some((t) => t.text === text && t.text !== ''))
            return problem(403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.')
          for (const id of body.media?.media_ids ?? []) {
            const m = media.get(id)
            if (!m?.finalized || m.pollsLeft > 0 || m.expiresAt <= now().getTime())
              return problem(400, 'Invalid Request', `Your media IDs are invalid: ${id}.`)
          }
          const replyTo = body.reply?.in_reply_to_tweet_id ?? null
          if (replyTo && deleted.has(replyTo))
            return problem(403, 'Forbidden', 'You attempted to reply to a Tweet that is deleted or not visible to you.')
          const tweet: FakeTweet = {
            id: nextId(),
            text,
            authorId: userId,
            createdAt: now().toISOString(),
            mediaIds: body.media?.media_ids ?? [],
            replyTo,
            quoteId: body.quote_tweet_id ?? null,
            metrics: {
              retweet_count: 3,
              reply_count: 2,
              like_count: 10,
              quote_count: 1,
              bookmark_count: 4,
              impression_count: 500,
            },
          }
          tweets.push(tweet)
          const after = take(req.path, true)
          if (after) return after
          return { status: 201, json: { data: { id: tweet.id, text, edit_history_tweet_ids: [tweet.id] } } }
        }),
      ],
      ...inbox.routes,
      [
        'GET',
        '/2/tweets',
        guard((req) => {
          const ids = (req.query.get('ids') ?? '').split(',')
          const fields = req.query.get('tweet.fields') ?? ''
          const found = ids.map((id) => tweets.find((t) => t.id === id)).filter((t): t is FakeTweet => !!t)
          const missing = ids.filter((id) => !tweets.some((t) => t.id === id))
          return {
            json: {
              data: found.map((t) => tweetJson(t, fields)),
              ...(missing.length
                ? {
                    errors: missing.map((id) => ({
                      value: id,
                      detail: `Could not find tweet with ids: [${id}].`,
                      title: 'Not Found Error',
                      type: 'https://api.twitter.com/2/problems/resource-not-found',
                    })),
                  }
                : {}),
            },
          }
        }),
      ],
      [
        'DELETE',
        /^\/2\/tweets\/(\d+)$/,
        guard((_req, [id]) => {
          const i = tweets.findIndex((t) => t.id === id)
          if (i < 0) return problem(404, 'Not Found Error', `Could not find tweet with id: [${id}].`)
          tweets.splice(i, 1)
          deleted.add(id!)
          return { json: { data: { deleted: true } } }
        }),
      ],
    ],
    () => problem(404, 'Not Found', 'Sorry, that page does not exist.'),
  )

  return {
    ...server,
    userId,
    username,
    /** The OAuth side: sign-ins, consent, revocations. */
    oauth,
    tweets,
    media,
    /** The bytes received for a media id, segments in order. */
    bytesOf: (id: string) =>
      Buffer.concat([...media.get(id)!.segments.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b)),
    /** The next authenticated call answers this instead. */
    failNext: (reply: FakeReply) => failures.push(reply),
    /**
     * A later call to `path` (after `skip` calls) answers this; with `afterCreate` the post is
     * created and the answer is still this (the answer that got lost).
     */
    failOn: (path: string, reply: FakeReply, options: { afterCreate?: boolean; skip?: number } = {}) =>
      failOn.push({ path, reply, afterCreate: options.afterCreate ?? false, skip: options.skip ?? 0 }),
    expireToken: (token: string) => validTokens.delete(token),
    validTokens,
    validRefresh,
    setFollowers: (n: number) => (followers = n),
    /** The user subscribes or lapses: the next lookup reports this tier. */
    setSubscription: (tier: 'Basic' | 'Premium' | 'PremiumPlus' | 'None') => (subscriptionType = tier),
    failProcessing: (id: string) => (media.get(id)!.failProcessing = true),
    /** Hidden replies, liked posts and other users (inbox side). */
    hidden: inbox.hidden,
    deleted,
    likes: inbox.likes,
    /** A post by someone else (a reply when `replyTo` is set, a mention when the text names @username). */
    addOthers: (who: FakeUser, text: string, createdAt: string, replyTo: string | null = null) => {
      inbox.users.set(who.id, who)
      return addTweet(text, createdAt, replyTo, who.id)
    },
    /** A post made directly on the network (by the user, or by an attempt whose answer we lost). */
    addTweet: (text: string, createdAt: string, replyTo: string | null = null) => addTweet(text, createdAt, replyTo),
  }
  function addTweet(text: string, createdAt: string, replyTo: string | null, authorId = userId) {
    {
      const t: FakeTweet = {
        id: nextId(),
        text,
        authorId,
        createdAt,
        mediaIds: [],
        replyTo,
        quoteId: null,
        metrics: {
          retweet_count: 0,
          reply_count: 0,
          like_count: 0,
          quote_count: 0,
          bookmark_count: 0,
          impression_count: 0,
        },
      }
      tweets.push(t)
      return t
    }
  }
}

export type MicroblogFake = Awaited<ReturnType<typeof startMicroblogFake>>
