/**
 * One submission to a subreddit (`POST /api/submit`, or `POST /api/submit_gallery_post.json` for
 * a gallery), exactly once. The network takes no idempotency key, so what is about to be sent
 * (subreddit, title) and when is saved before the call; a retry, or a call whose answer was lost,
 * first looks for a submission with that subreddit and title, made since, among the account's
 * newest submissions (`GET /user/{name}/submitted`). Image and video submissions are answered
 * without the new post's id (the network makes it once the media has processed): they wait in the
 * engine's pending state and are found the same way.
 */
import type { PendingInput, PublishInput, PublishMedia, PublishResult } from '../../adapter'
import { NetworkFailure, createdId } from '../../http'
import {
  FORUM_GALLERY_CAPTION_MAX,
  FORUM_GALLERY_MAX_ITEMS,
  FORUM_TITLE_MAX,
} from '../../../domain/rules/forum-network'
import { NETWORK, SITE, listingOf, type ForumCall } from './api'
import { uploadAll, type UploadedAsset } from './media'

/** The account's newest submissions read when looking for one, and the clock skew allowed. */
export const LOOKUP_PAGE_SIZE = 25
export const MATCH_SKEW_SEC = 120
/** Seconds between looks for an image or video submission still processing, and how long to look. */
export const PROCESSING_POLL_SEC = 15
export const PROCESSING_MAX_SEC = 30 * 60

export interface SentRecord {
  sr: string
  title: string
  /** ISO time the submission was sent (less the skew when matching). */
  at: string
}

export interface LookupPending {
  stage: 'lookup'
}

type Plan =
  | { kind: 'self'; text: string }
  | { kind: 'link'; url: string }
  | { kind: 'image'; image: PublishMedia }
  | { kind: 'video'; video: PublishMedia; poster: PublishMedia }
  | { kind: 'gallery'; images: PublishMedia[] }

const refuse = (message: string) => new NetworkFailure('rejected', `${NETWORK}: ${message}`)

/** The submission's title: the post's `title`, else the caption's first line. */
export function titleOf(content: PublishInput['content']): string {
  const given = content.title?.trim()
  return given ? given : (content.text.split(/\r\n|\r|\n/, 1)[0] ?? '').trim()
}

/** What kind of submission the target's content makes; refused in words when it makes none. */
export function planOf(content: PublishInput['content']): Plan {
  const images = content.media.filter((m) => m.type === 'IMAGE')
  const videos = content.media.filter((m) => m.type === 'VIDEO')
  if (videos.length > 1) throw refuse('a submission takes one video.')
  if (videos.length === 1) {
    if (images.length !== 1)
      throw refuse('a video submission needs exactly one image beside the video, its poster (cover) image.')
    return { kind: 'video', video: videos[0]!, poster: images[0]! }
  }
  if (images.length > FORUM_GALLERY_MAX_ITEMS)
    throw refuse(`a gallery takes at most ${FORUM_GALLERY_MAX_ITEMS} images.`)
  if (images.length > 1) return { kind: 'gallery', images }
  if (images.length === 1) return { kind: 'image', image: images[0]! }
  if (content.linkUrl) return { kind: 'link', url: content.linkUrl }
  return { kind: 'self', text: content.text }
}

/** The per-target options as the network's submit fields. */
function optionFields(options: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {}
  if (typeof options.flairId === 'string' && options.flairId) out.flair_id = options.flairId
  if (typeof options.flairText === 'string' && options.flairText) out.flair_text = options.flairText
  for (const [key, field] of [
    ['nsfw', 'nsfw'],
    ['spoiler', 'spoiler'],
    ['sendReplies', 'sendreplies'],
  ] as const)
    if (typeof options[key] === 'boolean') out[field] = String(options[key])
  return out
}

export async function publishSubmission(call: ForumCall, input: PublishInput): Promise<PublishResult> {
  const { content, progress } = input
  if (progress.headId) return published(progress.headId, progress.headPermalink)
  const sr = content.destinationId?.trim()
  if (!sr) throw refuse('choose a subreddit for this account (destinations).')
  const title = titleOf(content)
  if (!title) throw refuse('a submission needs a title: set `title`, or start the caption with one line.')
  if ([...title].length > FORUM_TITLE_MAX) throw refuse(`the title is longer than ${FORUM_TITLE_MAX} characters.`)
  const plan = planOf(content)
  const sent = progress.sent as SentRecord | undefined
  if (sent && sent.sr === sr && sent.title === title) {
    // An earlier attempt sent this: it may have landed.
    const found = await findSubmitted(call, input, sent)
    if (found) return found
  }
  const media =
    plan.kind === 'image'
      ? [plan.image]
      : plan.kind === 'video'
        ? [plan.video, plan.poster]
        : plan.kind === 'gallery'
          ? plan.images
          : []
  const assets = await uploadAll(call, input, media)
  const record: SentRecord = { sr, title, at: input.now.toISOString() }
  await input.saveProgress({ sent: record })
  const common = { sr, title, api_type: 'json', ...optionFields(content.targetOptions ?? {}) }
  if (plan.kind === 'gallery') return submitGallery(call, input, common, plan.images, assets)
  const fields: Record<string, string> = { ...common, kind: plan.kind }
  if (plan.kind === 'self') fields.text = plan.text
  if (plan.kind === 'link') fields.url = plan.url
  if (plan.kind === 'image') fields.url = assets[plan.image.id]!.url
  if (plan.kind === 'video') {
    fields.url = assets[plan.video.id]!.url
    fields.video_poster_url = assets[plan.poster.id]!.url
  }
  const body = await call('POST', '/api/submit', { form: fields })
  const data = body?.json?.data ?? {}
  if ((plan.kind === 'image' || plan.kind === 'video') && data.name === undefined && data.id === undefined) {
    // Answered before the post exists (`user_submitted_page`, `websocket_url`): look for it shortly.
    const state: LookupPending = { stage: 'lookup' }
    await input.saveProgress({ pending: state })
    return { status: 'pending', state, checkAfterSec: PROCESSING_POLL_SEC }
  }
  return settle(input, data, body)
}

async function submitGallery(
  call: ForumCall,
  input: PublishInput,
  common: Record<string, string>,
  images: PublishMedia[],
  assets: Record<string, UploadedAsset>,
): Promise<PublishResult> {
  const { api_type: _apiType, nsfw, spoiler, sendreplies, ...rest } = common
  const body = await call('POST', '/api/submit_gallery_post.json', {
    json: {
      ...rest,
      api_type: 'json',
      show_error_list: true,
      nsfw: nsfw === 'true',
      spoiler: spoiler === 'true',
      sendreplies: sendreplies !== 'false',
      items: images.map((m) => ({
        media_id: assets[m.id]!.assetId,
        caption: (m.altText ?? '').slice(0, FORUM_GALLERY_CAPTION_MAX),
        outbound_url: '',
      })),
    },
  })
  return settle(input, body?.json?.data ?? {}, body)
}

/** The created submission's fullname (`t3_...`) and permalink, saved at once. */
async function settle(input: Pick<PublishInput, 'saveProgress'>, data: Record<string, any>, body: unknown) {
  const raw = createdId(data.name ?? data.id, NETWORK, body, 'submission')
  const id = raw.startsWith('t3_') ? raw : `t3_${raw}`
  const permalink = typeof data.url === 'string' && data.url ? data.url : `${SITE}/comments/${id.slice(3)}/`
  await input.saveProgress({ headId: id, headPermalink: permalink, pending: undefined })
  return published(id, permalink)
}

const published = (id: string, permalink: unknown): PublishResult => ({
  status: 'published',
  platformPostId: id,
  permalink: typeof permalink === 'string' && permalink ? permalink : `${SITE}/comments/${id.slice(3)}/`,
})

/** A submission of the account's with the record's subreddit and title, made since it was sent. */
export async function findSubmitted(
  call: ForumCall,
  input: Pick<PublishInput, 'credentials' | 'saveProgress'>,
  sent: SentRecord,
): Promise<PublishResult | null> {
  const username = await usernameOf(call, input.credentials)
  const body = await call('GET', `/user/${encodeURIComponent(username)}/submitted`, {
    query: { sort: 'new', limit: String(LOOKUP_PAGE_SIZE), raw_json: '1' },
  })
  const since = Date.parse(sent.at) / 1000 - MATCH_SKEW_SEC
  const ours = listingOf(body).items.find(
    (p) =>
      String(p.subreddit ?? '').toLowerCase() === sent.sr.replace(/^\/?r\//i, '').toLowerCase() &&
      p.title === sent.title &&
      Number(p.created_utc) >= since,
  )
  if (!ours) return null
  const id = String(ours.name ?? `t3_${ours.id}`)
  const permalink = typeof ours.permalink === 'string' ? `${SITE}${ours.permalink}` : undefined
  await input.saveProgress({ headId: id, headPermalink: permalink, pending: undefined })
  return published(id, permalink)
}

async function usernameOf(call: ForumCall, credentials: Record<string, unknown>): Promise<string> {
  if (typeof credentials.username === 'string' && credentials.username) return credentials.username
  const me = await call('GET', '/api/v1/me')
  return String(me.name ?? '')
}

/** An image or video submission still processing, or an unconfirmed one: found, still waiting, or absent. */
export async function checkSubmission(call: ForumCall, input: PendingInput): Promise<PublishResult> {
  const sent = input.progress.sent as SentRecord | undefined
  if (input.progress.headId) return published(input.progress.headId, input.progress.headPermalink)
  if (!sent) return { status: 'absent' }
  const found = await findSubmitted(call, input, sent)
  if (found) return found
  const waiting = (input.progress.pending as LookupPending | undefined)?.stage === 'lookup'
  if (!waiting) return { status: 'absent' }
  if (input.now.getTime() - Date.parse(sent.at) > PROCESSING_MAX_SEC * 1000)
    throw new NetworkFailure(
      'unconfirmed',
      `${NETWORK}: the media submission did not appear among the account's submissions within ${PROCESSING_MAX_SEC / 60} minutes; check the subreddit before retrying.`,
    )
  return { status: 'pending', state: input.progress.pending, checkAfterSec: PROCESSING_POLL_SEC }
}
