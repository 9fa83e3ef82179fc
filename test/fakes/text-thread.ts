/**
 * A loopback text-thread network (Threads API, graph.threads.net), written from the Threads posts
 * reference: `/v1.0/{user-id}/threads` containers (TEXT, IMAGE, VIDEO, CAROUSEL; `reply_to_id`,
 * `link_attachment`), media pulled from our URL and checked, containers IN_PROGRESS for some polls
 * then FINISHED (or ERROR with `error_message`), `threads_publish`, permalinks, the account's
 * threads and replies lists, DELETE, token refresh, Graph error bodies (code 190 for a bad token),
 * and the inbox endpoints (text-thread-inbox.ts).
 */
import { randomBytes } from 'node:crypto'
import { oauthFake } from './oauth-provider'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'
import { threadInboxRoutes } from './text-thread-inbox'

export interface ThreadContainer {
  id: string
  params: Record<string, string>
  polls: number
  status: 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED'
  errorMessage: string | null
  fetched: { contentType: string; bytes: number } | null
}

export interface ThreadPost {
  id: string
  containerId: string
  text: string | null
  mediaType: string
  replyTo: string | null
  linkAttachment: string | null
  timestamp: string
  permalink: string
  deleted: boolean
}

/** Threads posts reference: a carousel has 2 to 20 images or videos (a mix allowed). */
const CAROUSEL_MAX = 20

const graphError = (status: number, message: string, code: number, subcode?: number): FakeReply => ({
  status,
  json: {
    error: {
      message,
      type: code === 190 ? 'OAuthException' : 'THApiException',
      code,
      ...(subcode ? { error_subcode: subcode } : {}),
      fbtrace_id: 'AbCdEf',
    },
  },
})

export async function startTextThreadFake(
  options: { userId?: string; username?: string; token?: string; processingPolls?: number; now?: () => Date } = {},
) {
  const userId = options.userId ?? '26000000000000001'
  const state = {
    token: options.token ?? 'th-token',
    processingPolls: options.processingPolls ?? 1,
    containers: new Map<string, ThreadContainer>(),
    posts: [] as ThreadPost[],
    publishCalls: [] as string[],
    refreshCalls: 0,
    loseNextPublishAnswer: false,
    /** The publish call with this number (1-based) is made, but its answer is lost. */
    loseAnswerOfPublishCall: 0,
    failNextMatching: [] as Array<{ path: RegExp; reply: FakeReply }>,
  }
  let seq = 0
  const now = () => options.now?.() ?? new Date()
  const nextId = () => `180000000${String(++seq).padStart(8, '0')}`
  const params = (req: FakeRequest) => {
    const all = new URLSearchParams(req.query)
    if (req.method === 'POST' && req.body.length) for (const [k, v] of req.form()) all.set(k, v)
    return Object.fromEntries(all)
  }

  async function pull(c: ThreadContainer) {
    const video = c.params.media_type === 'VIDEO'
    try {
      const res = await fetch(video ? c.params.video_url! : c.params.image_url!)
      const bytes = new Uint8Array(await res.arrayBuffer())
      const type = res.headers.get('content-type') ?? ''
      c.fetched = { contentType: type, bytes: bytes.byteLength }
      const magic = video
        ? bytes.byteLength > 8
        : (bytes[0] === 0xff && bytes[1] === 0xd8) || (bytes[0] === 0x89 && bytes[1] === 0x50)
      if (!res.ok || !(video ? /^video\//.test(type) : /^image\/(jpeg|png)/.test(type)) || !magic) {
        Object.assign(c, {
          status: 'ERROR',
          errorMessage: video ? 'FAILED_PROCESSING_VIDEO' : 'FAILED_PROCESSING_IMAGE',
        })
      }
    } catch {
      Object.assign(c, { status: 'ERROR', errorMessage: 'FAILED_DOWNLOADING_VIDEO' })
    }
  }

  async function create(p: Record<string, string>): Promise<FakeReply> {
    const type = p.media_type
    if (!['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'].includes(type ?? ''))
      return graphError(400, 'The parameter media_type is required.', 100)
    if (type === 'TEXT' && !p.text) return graphError(400, 'The parameter text is required for TEXT posts.', 100)
    if (type === 'IMAGE' && !p.image_url) return graphError(400, 'The parameter image_url is required.', 100)
    if (type === 'VIDEO' && !p.video_url) return graphError(400, 'The parameter video_url is required.', 100)
    if (p.reply_to_id && !state.posts.some((x) => x.id === p.reply_to_id) && !inbox.exists(p.reply_to_id))
      return graphError(400, 'The post you are replying to does not exist.', 100, 4279009)
    if (type === 'CAROUSEL') {
      const kids = (p.children ?? '').split(',').map((id) => state.containers.get(id))
      if (kids.length > CAROUSEL_MAX) return graphError(400, `A carousel takes at most ${CAROUSEL_MAX} items.`, 100)
      if (kids.length < 2 || kids.some((k) => k?.params.is_carousel_item !== 'true' || k.status !== 'FINISHED'))
        return graphError(400, 'Carousel children are missing or not ready.', 100, 4279004)
    }
    const c: ThreadContainer = {
      id: nextId(),
      params: p,
      polls: 0,
      status: 'IN_PROGRESS',
      errorMessage: null,
      fetched: null,
    }
    state.containers.set(c.id, c)
    if (type === 'IMAGE' || type === 'VIDEO') await pull(c)
    return { json: { id: c.id } }
  }

  function publish(p: Record<string, string>): FakeReply {
    state.publishCalls.push(p.creation_id ?? '')
    const c = state.containers.get(p.creation_id ?? '')
    if (!c) return graphError(400, 'Invalid creation_id.', 100)
    if (c.status !== 'FINISHED') return graphError(400, 'The media is not ready to be published.', 24, 4279001)
    const post: ThreadPost = {
      id: nextId(),
      containerId: c.id,
      text: c.params.text ?? null,
      mediaType: c.params.media_type!,
      replyTo: c.params.reply_to_id ?? null,
      linkAttachment: c.params.link_attachment ?? null,
      timestamp: now()
        .toISOString()
        .replace(/\.\d{3}Z$/, '+0000'),
      permalink: `https://threads.example/@${options.username ?? 'thread_user'}/post/${seq}`,
      deleted: false,
    }
    Object.assign(c, { status: 'PUBLISHED' })
    state.posts.push(post)
    if (state.loseNextPublishAnswer || state.publishCalls.length === state.loseAnswerOfPublishCall) {
      state.loseNextPublishAnswer = false
      return { status: 503, body: 'Service Unavailable' }
    }
    return { json: { id: post.id } }
  }

  const guard = (req: FakeRequest): FakeReply | null => {
    if (params(req).access_token !== state.token)
      return graphError(400, 'Error validating access token: Session has expired.', 190, 463)
    const hit = state.failNextMatching.findIndex((f) => f.path.test(req.path))
    return hit >= 0 ? state.failNextMatching.splice(hit, 1)[0]!.reply : null
  }
  const live = () => state.posts.filter((x) => !x.deleted).reverse()
  // Hosted connect: the code gives a short-lived token (and the user id), traded for a long-lived one.
  const shortLived = new Set<string>()
  const oauth = oauthFake(
    {
      client: { id: 'th-app', secret: 'th-secret' },
      clientAuth: 'post',
      pkce: false,
      omitTokenType: true,
      answerFields: () => ({ user_id: Number(userId) }),
    },
    (issued) => shortLived.add(issued.accessToken),
  )

  const inbox = threadInboxRoutes({
    userId,
    username: () => options.username ?? 'thread_user',
    guard,
    params,
    posts: () => state.posts,
    url: () => server.url,
  })
  const server = await startFakeServer(
    [
      ...inbox.routes,
      ['GET', '/oauth/authorize', (req) => oauth.authorize(req)],
      ['POST', '/oauth/access_token', (req) => oauth.exchange(req)],
      [
        'GET',
        '/access_token',
        (req) => {
          const p = params(req)
          const hit = state.failNextMatching.findIndex((f) => f.path.test(req.path))
          if (hit >= 0) return state.failNextMatching.splice(hit, 1)[0]!.reply
          if (p.grant_type !== 'th_exchange_token' || p.client_secret !== 'th-secret')
            return graphError(400, 'Error validating client secret.', 1)
          if (!shortLived.delete(p.access_token ?? ''))
            return graphError(400, 'Invalid OAuth access token - Cannot parse access token', 190)
          state.token = `THLong${randomBytes(6).toString('hex')}`
          return { json: { access_token: state.token, token_type: 'bearer', expires_in: 5_183_944 } }
        },
      ],
      [
        'GET',
        '/refresh_access_token',
        (req) => {
          const p = params(req)
          state.refreshCalls++
          if (p.grant_type !== 'th_refresh_token' || p.access_token !== state.token)
            return graphError(400, 'Error validating access token: Session has expired.', 190, 463)
          state.token = `${state.token}-r${state.refreshCalls}`
          return { json: { access_token: state.token, token_type: 'bearer', expires_in: 5_184_000 } }
        },
      ],
      [
        'GET',
        /^\/v1\.0\/([^/]+)(?:\/([^/]+))?$/,
        (req, [id, edge]) => {
          const refused = guard(req)
          if (refused) return refused
          if (id === 'me') return { json: { id: userId, username: options.username ?? 'thread_user' } }
          if (id === userId && (edge === 'threads' || edge === 'replies')) {
            return {
              json: {
                data: live()
                  .filter((x) => (edge === 'replies') === (x.replyTo !== null))
                  .map((x) => ({ id: x.id, text: x.text ?? undefined, timestamp: x.timestamp })),
              },
            }
          }
          const c = state.containers.get(id!)
          if (c) {
            if (c.status === 'IN_PROGRESS' && ++c.polls >= state.processingPolls) c.status = 'FINISHED'
            return {
              json: { id: c.id, status: c.status, ...(c.errorMessage ? { error_message: c.errorMessage } : {}) },
            }
          }
          const post = live().find((x) => x.id === id)
          if (post) return { json: { id: post.id, permalink: post.permalink } }
          return graphError(
            400,
            `Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
            100,
            33,
          )
        },
      ],
      [
        'POST',
        /^\/v1\.0\/([^/]+)\/(threads|threads_publish)$/,
        async (req, [id, edge]) => {
          const refused = guard(req)
          if (refused) return refused
          if (id !== userId) return graphError(400, 'Unsupported post request.', 100, 33)
          return edge === 'threads' ? create(params(req)) : publish(params(req))
        },
      ],
      [
        'DELETE',
        /^\/v1\.0\/([^/]+)$/,
        (req, [id]) => {
          const refused = guard(req)
          if (refused) return refused
          const post = live().find((x) => x.id === id)
          if (!post) return graphError(400, `Object with ID '${id}' does not exist`, 100, 33)
          post.deleted = true
          return { json: { success: true, deleted_id: id } }
        },
      ],
    ],
    () => graphError(400, 'Unknown path components', 2500),
  )

  return {
    ...server,
    userId,
    state,
    oauth,
    /** Replies by others on the account's threads, and mentions of the account (text-thread-inbox.ts). */
    inbox,
    failNext(path: RegExp, reply: FakeReply) {
      state.failNextMatching.push({ path, reply })
    },
    expireToken() {
      state.token = `${state.token}-revoked`
    },
    containers: () => [...state.containers.values()],
    /** Published posts in order, with the chain of replies. */
    published: () => state.posts.filter((x) => !x.deleted),
  }
}
