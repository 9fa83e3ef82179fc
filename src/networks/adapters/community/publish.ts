/**
 * Publishing to a community (Lemmy `POST /api/v3/post`): the image, if any, is uploaded once to
 * the instance's image server (`POST /pictrs/image`) and becomes the post's URL, or the custom
 * thumbnail of a link post. The network takes no idempotency key, so the moment before the create
 * call is recorded, and any later try (a retry, or the engine settling an unanswered call) first
 * reads the account's newest posts (`GET /api/v3/user?sort=New`) for one in the same community,
 * with the same title, made since then: found, it is the post; not found, none was made.
 */
import type { PendingInput, PublishInput, PublishMedia, PublishProgress, PublishResult } from '../../adapter'
import { createdId, downloadMedia, joinUrl, MEDIA_TIMEOUT_MS, NetworkFailure, request } from '../../http'
import { type CallContext, failureFrom, lemmy, NETWORK } from './api'
import { type CommunitySession, sessionOf } from './session'

/** The server's shortest title, in code points (the longest is in the rules). */
const TITLE_MIN = 3
/** Posts read back when looking for one whose answer was lost (the server's page maximum). */
const RECENT_POSTS = 50
/** Clock difference between us and the instance tolerated when matching a post's time. */
const CLOCK_SKEW_MS = 2 * 60_000

export interface CommunityProgress extends PublishProgress {
  /** The uploaded image's address on the instance (never uploaded twice). */
  imageUrl?: string
  /** When the create call was about to be sent (the post may exist from then on). */
  sentAt?: string
}

interface Ctx {
  input: PublishInput | PendingInput
  progress: CommunityProgress
  session: CommunitySession
  call: CallContext
}

export interface PostPlan {
  communityId: number
  title: string
}

export function contextOf(input: PublishInput | PendingInput): Ctx {
  const session = sessionOf(input.credentials)
  return {
    input,
    progress: input.progress as CommunityProgress,
    session,
    call: { fetch: input.fetch, baseUrl: input.baseUrl, now: input.now, jwt: session.jwt },
  }
}

/** The target's community and title (the engine's: `title`, else the caption's first line), or a refusal in words. */
export function planOf(input: PublishInput | PendingInput): PostPlan {
  const { destinationId, title } = input.content
  const communityId = Number(destinationId)
  if (!destinationId || !Number.isInteger(communityId) || communityId <= 0)
    throw new NetworkFailure('rejected', `${NETWORK}: choose the community to post in.`)
  const chosen = (title ?? '').trim()
  if ([...chosen].length < TITLE_MIN)
    throw new NetworkFailure('rejected', `${NETWORK}: the title must be at least ${TITLE_MIN} characters.`)
  return { communityId, title: chosen }
}

const permalinkOf = (ctx: Ctx, post: Record<string, any>): string =>
  typeof post.ap_id === 'string' && /^https?:\/\//.test(post.ap_id)
    ? post.ap_id
    : joinUrl(ctx.input.baseUrl, `post/${post.id}`)

/** The server's time stamps are UTC; one without a zone is read as UTC. */
const timeOf = (value: unknown): number =>
  typeof value === 'string' ? Date.parse(/(Z|[+-]\d\d:?\d\d)$/.test(value) ? value : `${value}Z`) : NaN

/** The post made by a create call sent at `sentAt`, if the account's newest posts hold it. */
export async function findSent(ctx: Ctx, plan: PostPlan, sentAt: string): Promise<{ id: string; url: string } | null> {
  const since = Date.parse(sentAt) - CLOCK_SKEW_MS
  const answer = await lemmy(ctx.call, 'user', {
    query: { username: ctx.session.username, sort: 'New', limit: RECENT_POSTS, page: 1 },
  })
  const posts: any[] = Array.isArray(answer?.posts) ? answer.posts : []
  const found = posts
    .map((view) => view?.post)
    .find(
      (post) =>
        post &&
        post.community_id === plan.communityId &&
        post.creator_id === ctx.session.personId &&
        typeof post.name === 'string' &&
        post.name.trim() === plan.title &&
        timeOf(post.published) >= since,
    )
  return found ? { id: String(found.id), url: permalinkOf(ctx, found) } : null
}

/** Settles an unanswered publish: the post it made, or `absent` when it made none. */
export async function settle(ctx: Ctx): Promise<PublishResult> {
  const { progress } = ctx
  if (progress.headId)
    return { status: 'published', platformPostId: progress.headId, permalink: progress.headPermalink ?? '' }
  if (!progress.sentAt) return { status: 'absent' }
  const found = await findSent(ctx, planOf(ctx.input), progress.sentAt)
  if (!found) return { status: 'absent' }
  await ctx.input.saveProgress({ headId: found.id, headPermalink: found.url })
  return { status: 'published', platformPostId: found.id, permalink: found.url }
}

export async function publishFlow(ctx: Ctx): Promise<PublishResult> {
  const { input, progress } = ctx
  if (progress.headId)
    return { status: 'published', platformPostId: progress.headId, permalink: progress.headPermalink ?? '' }
  const plan = planOf(input)
  // An earlier try may have made the post though its answer never came back.
  if (progress.sentAt) {
    const found = await findSent(ctx, plan, progress.sentAt)
    if (found) {
      await input.saveProgress({ headId: found.id, headPermalink: found.url })
      return { status: 'published', platformPostId: found.id, permalink: found.url }
    }
  }
  const image = input.content.media.find((m) => m.type === 'IMAGE') ?? null
  if (image && !progress.imageUrl) await input.saveProgress({ imageUrl: await upload(ctx, image) })
  await input.saveProgress({ sentAt: input.now.toISOString() })
  const body = await lemmy(ctx.call, 'post', { method: 'POST', json: postBody(ctx, plan, image) })
  const post = body?.post_view?.post ?? {}
  const id = createdId(post.id, NETWORK, body)
  const url = permalinkOf(ctx, { ...post, id })
  await input.saveProgress({ headId: id, headPermalink: url, partIds: [] })
  return { status: 'published', platformPostId: id, permalink: url }
}

/** The CreatePost body: title, community, Markdown body, URL, image and per-target options. */
function postBody(ctx: Ctx, plan: PostPlan, image: PublishMedia | null): Record<string, unknown> {
  const { content } = ctx.input
  const options = content.targetOptions ?? {}
  const imageUrl = ctx.progress.imageUrl
  const link = content.linkUrl
  return {
    name: plan.title,
    community_id: plan.communityId,
    ...(content.text.trim() ? { body: content.text } : {}),
    // A link post keeps its link and shows the image as its thumbnail; otherwise the image is the post.
    ...(link ? { url: link } : imageUrl ? { url: imageUrl } : {}),
    ...(link && imageUrl ? { custom_thumbnail: imageUrl } : {}),
    ...(image?.altText && imageUrl ? { alt_text: image.altText } : {}),
    ...(typeof options.nsfw === 'boolean' ? { nsfw: options.nsfw } : {}),
    ...(typeof options.languageId === 'number' ? { language_id: options.languageId } : {}),
  }
}

/** `POST /pictrs/image` (multipart `images[]`): the address of the uploaded file on the instance. */
async function upload(ctx: Ctx, media: PublishMedia): Promise<string> {
  const bytes = await downloadMedia(ctx.input.fetch, media)
  const form = new FormData()
  const extension = media.mimeType.split('/')[1] ?? 'bin'
  form.append(
    'images[]',
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: media.mimeType }),
    `${media.id}.${extension}`,
  )
  const answer = await request(ctx.input.fetch, NETWORK, joinUrl(ctx.input.baseUrl, 'pictrs/image'), {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.session.jwt}` },
    body: form,
    timeoutMs: MEDIA_TIMEOUT_MS,
  })
  const body = answer.body
  if (answer.status < 200 || answer.status >= 300) {
    const failure = failureFrom(answer.status, body, answer.headers, ctx.input.now)
    if (failure.code !== null || typeof body?.msg !== 'string') throw failure
    throw new NetworkFailure(failure.kind, `${NETWORK}: the image was refused (${body.msg}).`, failure.retryAfterSec)
  }
  const file = Array.isArray(body?.files) ? body.files[0]?.file : undefined
  if (body?.msg !== 'ok' || typeof file !== 'string' || !file)
    throw new NetworkFailure('transient', `${NETWORK}: the image upload answered without a file name.`)
  return joinUrl(ctx.input.baseUrl, `pictrs/image/${encodeURIComponent(file)}`)
}
