/**
 * The open-protocol network (Bluesky, AT Protocol): app-password sessions cached in the
 * credentials, posts as app.bsky.feed.post records under deterministic record keys (a retry can
 * never make a second post), rich-text facets, image / video / link-card embeds, self-threads as
 * reply chains of strong refs. Video goes through the network's video service as a job polled
 * through the engine's pending state.
 */
import type { NetworkAdapter, PendingInput, PublishInput, PublishResult } from '../../adapter'
import { asFailedResult, createdId, NetworkFailure } from '../../http'
import { metric, metricSum } from '../../metrics'
import type { AdapterOptions } from '../options'
import { facetsOf, mentionedHandles } from './facets'
import * as inbox from './inbox'
import * as actions from './inbox-actions'
import { type Ctx, headEmbed, type OpenProgress, type StrongRef, VIDEO_POLL_SEC } from './media'
import {
  createSession,
  isXrpcError,
  NETWORK,
  parseAtUri,
  recordKeyFor,
  requireSession,
  sessionRefresh,
  xrpc,
  type Session,
} from './xrpc'

const POST_COLLECTION = 'app.bsky.feed.post'
/** app.bsky.feed.getPosts takes at most this many uris. */
const GET_POSTS_BATCH = 25
const permalinkOf = (session: Session, rkey: string) =>
  `https://bsky.app/profile/${session.handle || session.did}/post/${rkey}`

export function createOpenProtocolAdapter(options: AdapterOptions): NetworkAdapter {
  const videoUrl = options.origins.OPENPROTOCOL_NET_VIDEO_URL

  async function run(input: PublishInput | PendingInput): Promise<PublishResult> {
    try {
      const ctx: Ctx = {
        input,
        session: requireSession(input.credentials),
        progress: input.progress as OpenProgress,
        videoUrl,
      }
      if ('unconfirmed' in input && input.unconfirmed && !ctx.progress.headId) {
        const head = await readPost(ctx, 0)
        if (!head) return { status: 'absent' }
        await input.saveProgress({
          headId: head.uri,
          headPermalink: permalinkOf(ctx.session, parseAtUri(head.uri).rkey),
          cids: [head.cid],
        })
      }
      return await publishFlow(ctx)
    } catch (err) {
      return asFailedResult(err)
    }
  }

  return {
    listPosts: inbox.listPosts,
    listComments: inbox.listComments,
    listMentions: inbox.listMentions,
    replyToComment: actions.replyToComment,
    hideComment: actions.hideComment,
    deleteComment: actions.deleteComment,
    likeComment: actions.likeComment,
    publish: run,
    checkStatus: run,
    credentialRefresh: sessionRefresh,

    async verifyCredentials({ credentials, fetch: fetchImpl, baseUrl, now }) {
      const session = await createSession(fetchImpl, baseUrl, credentials, now)
      return { username: session.handle, externalId: session.did, credentials: { ...credentials, session } }
    },

    async fetchInsights({ credentials, posts, fetch: fetchImpl, baseUrl, now }) {
      const session = requireSession(credentials)
      const profile = await xrpc(
        fetchImpl,
        baseUrl,
        'app.bsky.actor.getProfile',
        { token: session.accessJwt, params: { actor: session.did } },
        now,
      )
      const views = new Map<string, any>()
      for (let i = 0; i < posts.length; i += GET_POSTS_BATCH) {
        const uris = posts.slice(i, i + GET_POSTS_BATCH).map((p) => p.platformPostId)
        const answer = await xrpc(
          fetchImpl,
          baseUrl,
          'app.bsky.feed.getPosts',
          { token: session.accessJwt, params: { uris } },
          now,
        )
        for (const view of answer.posts ?? []) views.set(view.uri, view)
      }
      return {
        followers: metric(profile.followersCount),
        posts: posts.map((p) => {
          const view = views.get(p.platformPostId)
          if (!view)
            return { targetId: p.targetId, likes: null, comments: null, shares: null, views: null, saves: null }
          return {
            targetId: p.targetId,
            likes: metric(view.likeCount),
            comments: metric(view.replyCount),
            shares: metricSum(view.repostCount, view.quoteCount),
            views: null,
            saves: null,
          }
        }),
      }
    },

    async deletePost({ credentials, platformPostId, fetch: fetchImpl, baseUrl, now }) {
      const session = requireSession(credentials)
      const { collection, rkey } = parseAtUri(platformPostId)
      await xrpc(
        fetchImpl,
        baseUrl,
        'com.atproto.repo.deleteRecord',
        { token: session.accessJwt, json: { repo: session.did, collection, rkey } },
        now,
      )
    },
  }
}

async function publishFlow(ctx: Ctx): Promise<PublishResult> {
  const { input, progress, session } = ctx
  const texts = [input.content.text, ...input.content.threadParts]
  const cids = [...(progress.cids ?? [])]
  const uris = progress.headId ? [progress.headId, ...(progress.partIds ?? [])] : []
  if (uris.length === 0) {
    const embed = await headEmbed(ctx)
    if (embed === 'pending') return { status: 'pending', state: progress.pending, checkAfterSec: VIDEO_POLL_SEC }
    const head = await createPost(ctx, 0, texts[0]!, embed, null)
    uris.push(head.uri)
    cids[0] = head.cid
    await input.saveProgress({
      headId: head.uri,
      headPermalink: permalinkOf(session, parseAtUri(head.uri).rkey),
      cids: [...cids],
      partIds: [],
    })
  }
  for (let i = uris.length; i < texts.length; i++) {
    const root = { uri: uris[0]!, cid: cids[0]! }
    const parent = { uri: uris[i - 1]!, cid: cids[i - 1]! }
    const part = await createPost(ctx, i, texts[i]!, undefined, { root, parent })
    uris.push(part.uri)
    cids[i] = part.cid
    await input.saveProgress({ partIds: uris.slice(1), cids: [...cids] })
  }
  return {
    status: 'published',
    platformPostId: uris[0]!,
    permalink: progress.headPermalink ?? permalinkOf(session, parseAtUri(uris[0]!).rkey),
  }
}

/** Creates post `index` under its deterministic record key; an existing record there is the same post, read back. */
async function createPost(
  ctx: Ctx,
  index: number,
  text: string,
  embed: unknown,
  reply: { root: StrongRef; parent: StrongRef } | null,
): Promise<StrongRef> {
  const { input, session } = ctx
  const rkey = await recordKeyFor(input.idempotencyKey, index)
  const record = {
    $type: POST_COLLECTION,
    text,
    createdAt: input.now.toISOString(),
    ...(await facetsFor(ctx, text)),
    ...(embed ? { embed } : {}),
    ...(reply ? { reply } : {}),
  }
  try {
    const created = await xrpc(
      input.fetch,
      input.baseUrl,
      'com.atproto.repo.createRecord',
      { token: session.accessJwt, json: { repo: session.did, collection: POST_COLLECTION, rkey, record } },
      input.now,
    )
    const uri = createdId(created?.uri, NETWORK, created, 'record')
    return { uri, cid: createdId(created?.cid, NETWORK, created, 'record') }
  } catch (err) {
    // Older servers answer a taken record key with a 500, newer ones with RecordAlreadyExists.
    const maybeExists =
      isXrpcError(err, 'RecordAlreadyExists') ||
      (err instanceof NetworkFailure && (err.kind === 'transient' || err.kind === 'unconfirmed'))
    if (!maybeExists) throw err
    // A read-back the network cannot answer leaves the first failure to report; a bug of ours goes up.
    const existing = await readPost(ctx, index).catch((readErr) => {
      if (readErr instanceof NetworkFailure) return null
      throw readErr
    })
    if (existing) return existing
    throw err
  }
}

/** The post at part `index`'s record key, or null when the server has none. */
async function readPost(ctx: Pick<Ctx, 'input' | 'session'>, index: number): Promise<StrongRef | null> {
  const { input, session } = ctx
  const rkey = await recordKeyFor(input.idempotencyKey, index)
  try {
    const found = await xrpc(
      input.fetch,
      input.baseUrl,
      'com.atproto.repo.getRecord',
      { token: session.accessJwt, params: { repo: session.did, collection: POST_COLLECTION, rkey } },
      input.now,
    )
    return { uri: String(found.uri), cid: String(found.cid) }
  } catch (err) {
    if (isXrpcError(err, 'RecordNotFound')) return null
    throw err
  }
}

async function facetsFor(ctx: Pick<Ctx, 'input' | 'session'>, text: string): Promise<{ facets?: unknown[] }> {
  const dids = new Map<string, string>()
  for (const handle of mentionedHandles(text)) {
    try {
      const answer = await xrpc(
        ctx.input.fetch,
        ctx.input.baseUrl,
        'com.atproto.identity.resolveHandle',
        { token: ctx.session.accessJwt, params: { handle } },
        ctx.input.now,
      )
      if (typeof answer.did === 'string') dids.set(handle, answer.did)
    } catch (err) {
      // An unknown handle stays plain text; anything else (rate limit, outage) is worth a retry.
      if (!(err instanceof NetworkFailure) || err.kind !== 'rejected') throw err
    }
  }
  const facets = facetsOf(text, dids)
  return facets.length ? { facets } : {}
}
