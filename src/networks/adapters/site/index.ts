/**
 * The site publishing network (WordPress REST API wp/v2): one post or page per target. The first
 * image is uploaded to the media library (`POST /media`, the bytes as the body with
 * `Content-Disposition`) and set as `featured_media`; categories are the site's existing ones,
 * tags are made when missing. The API has no idempotency key, so the attempt's time is recorded
 * before the create call, and a call whose answer was lost is settled by listing the author's
 * recent posts (any status, after the attempt, searched by title). A delete moves to the trash.
 */
import type {
  NetworkAdapter,
  PendingInput,
  PublishInput,
  PublishProgress,
  PublishResult,
  VerifiedAccount,
  VerifyInput,
} from '../../adapter'
import { asFailedResult, createdId, downloadMedia, MEDIA_TIMEOUT_MS, NetworkFailure } from '../../http'
import { metric } from '../../metrics'
import type { AdapterOptions } from '../options'
import { deleteComment, hideComment, listComments, listPosts, replyToComment } from './inbox'
import { errorCode, failureFrom, hosted, NETWORK, type Session, sessionOf, wp, wpAnswer } from './api'
import { categoryIds, fieldsOf, htmlOf, type SitePostFields, tagIds, titleOf } from './content'

/**
 * How far before the attempt the author's posts are searched: the `after` filter reads the post's
 * date, which a site may keep in its own time zone.
 */
const RECONCILE_MARGIN_MS = 24 * 3600_000

interface SiteProgress extends PublishProgress {
  /** The featured image's id in the media library, once uploaded (never uploaded twice). */
  mediaId?: number
  /** When the create call was about to be sent (recorded before it). */
  sentAt?: string
}

const collection = (kind: SitePostFields['kind']) => (kind === 'page' ? 'pages' : 'posts')

async function uploadFeatured(session: Session, input: PublishInput | PendingInput): Promise<number | null> {
  const progress = input.progress as SiteProgress
  if (progress.mediaId) return progress.mediaId
  const image = input.content.media.find((m) => m.type === 'IMAGE')
  if (!image) return null
  const bytes = await downloadMedia(input.fetch, image)
  const extension = image.mimeType.split('/')[1]?.replace('jpeg', 'jpg') ?? 'bin'
  const answer = await wp(session, 'media', {
    method: 'POST',
    body: bytes as Uint8Array<ArrayBuffer>,
    headers: {
      'content-type': image.mimeType,
      'content-disposition': `attachment; filename="${image.id}.${extension}"`,
    },
    timeoutMs: MEDIA_TIMEOUT_MS,
  })
  const id = Number(createdId(answer.body?.id, NETWORK, answer.body, 'media'))
  await input.saveProgress({ mediaId: id })
  if (image.altText) await wp(session, `media/${id}`, { method: 'POST', json: { alt_text: image.altText } })
  return id
}

/** The post made by our attempt at `sentAt`, if the author has it. */
async function findSent(
  session: Session,
  fields: SitePostFields,
  title: string,
  sentAt: string,
): Promise<{ id: string; link: string } | null> {
  const me = (await wp(session, 'users/me')).body ?? {}
  const after = new Date(Date.parse(sentAt) - RECONCILE_MARGIN_MS).toISOString()
  const query = new URLSearchParams({
    author: String(me.id),
    status: 'any',
    after,
    search: title,
    context: 'edit',
    per_page: '20',
  })
  const answer = await wp(session, `${collection(fields.kind)}?${query}`)
  const posts = (Array.isArray(answer.body) ? answer.body : []) as Array<Record<string, any>>
  const hit = posts.find((p) => (p.title?.raw ?? p.title?.rendered) === title)
  return hit ? { id: String(hit.id), link: typeof hit.link === 'string' ? hit.link : '' } : null
}

async function publishPost(input: PublishInput | PendingInput): Promise<PublishResult> {
  const progress = input.progress as SiteProgress
  if (progress.headId)
    return { status: 'published', platformPostId: progress.headId, permalink: progress.headPermalink ?? '' }
  const session = sessionOf(input)
  const fields = fieldsOf(input.content)
  const title = titleOf(input.content)
  const unconfirmed = 'unconfirmed' in input && input.unconfirmed
  if (progress.sentAt) {
    const found = await findSent(session, fields, title, progress.sentAt)
    if (found) {
      await input.saveProgress({ headId: found.id, headPermalink: found.link })
      return { status: 'published', platformPostId: found.id, permalink: found.link }
    }
  }
  if (unconfirmed) return { status: 'absent' }
  const featured = await uploadFeatured(session, input)
  const body: Record<string, unknown> = {
    title,
    content: htmlOf(input.content.text),
    status: fields.status,
    ...(fields.excerpt ? { excerpt: fields.excerpt } : {}),
    ...(fields.slug ? { slug: fields.slug } : {}),
    ...(featured ? { featured_media: featured } : {}),
  }
  if (fields.categories.length) body.categories = await categoryIds(session, fields.categories)
  if (fields.tags.length) body.tags = await tagIds(session, fields.tags)
  await input.saveProgress({ sentAt: input.now.toISOString() })
  const answer = await wp(session, collection(fields.kind), { method: 'POST', json: body })
  const id = createdId(answer.body?.id, NETWORK, answer.body)
  const permalink = typeof answer.body?.link === 'string' ? answer.body.link : ''
  await input.saveProgress({ headId: id, headPermalink: permalink })
  return { status: 'published', platformPostId: id, permalink }
}

async function verify(input: VerifyInput): Promise<VerifiedAccount> {
  const session = sessionOf(input)
  const me = (await wp(session, 'users/me?context=edit')).body ?? {}
  if (me.id === undefined || me.id === null) throw new NetworkFailure('rejected', `${NETWORK}: the site names no user.`)
  if (input.connection === 'DIRECT_LOGIN') {
    const siteId = String(input.credentials.siteId)
    const site = (await hosted(session, `rest/v1.1/sites/${encodeURIComponent(siteId)}`)).body ?? {}
    return { username: siteName(site), externalId: siteId, credentials: input.credentials }
  }
  const host = new URL(input.baseUrl).host
  const name = typeof me.username === 'string' && me.username ? me.username : String(me.slug ?? me.id)
  return { username: `${name} on ${host}`, externalId: `${host}:${me.id}`, credentials: input.credentials }
}

const siteName = (site: Record<string, any>): string =>
  typeof site.name === 'string' && site.name.trim()
    ? site.name.trim()
    : typeof site.URL === 'string'
      ? new URL(site.URL).host
      : String(site.ID)

/** The sites a WordPress.com sign-in may publish to, each an identity with its own `siteId`. */
async function listSites(input: VerifyInput): Promise<VerifiedAccount[]> {
  if (input.connection !== 'DIRECT_LOGIN') return [await verify(input)]
  const session = sessionOf(input)
  const answer = await hosted(session, 'rest/v1.1/me/sites?fields=ID,name,URL,capabilities')
  const sites = (Array.isArray(answer.body?.sites) ? answer.body.sites : []) as Array<Record<string, any>>
  return sites
    .filter((s) => s.ID !== undefined && s.capabilities?.publish_posts !== false)
    .map((s) => ({
      username: siteName(s),
      externalId: String(s.ID),
      credentials: { ...input.credentials, siteId: String(s.ID) },
    }))
}

export function createSiteAdapter(_options: AdapterOptions): NetworkAdapter {
  const run = async (input: PublishInput | PendingInput): Promise<PublishResult> => {
    try {
      return await publishPost(input)
    } catch (err) {
      return asFailedResult(err)
    }
  }
  return {
    publish: run,
    checkStatus: run,
    verifyCredentials: verify,
    listPosts,
    listComments,
    replyToComment,
    hideComment,
    deleteComment,
    listIdentities: listSites,

    /** To the trash (no `force`); a page's id answers `rest_post_invalid_id` on posts, so pages are tried next. */
    async deletePost(input) {
      const session = sessionOf(input)
      const id = encodeURIComponent(input.platformPostId)
      for (const kind of ['posts', 'pages']) {
        const answer = await wpAnswer(session, `${kind}/${id}`, { method: 'DELETE' })
        if (answer.status >= 200 && answer.status < 300) return
        const code = errorCode(answer)
        if (code === 'rest_already_trashed') return
        if (code === 'rest_post_invalid_id') continue
        throw failureFrom(session, answer)
      }
      // Neither a post nor a page by that id: already gone.
    },

    /** Approved comments per post: the `X-WP-Total` of a one-item comment list. */
    async fetchInsights(input) {
      const session = sessionOf(input)
      const posts = []
      for (const post of input.posts) {
        const answer = await wpAnswer(session, `comments?post=${encodeURIComponent(post.platformPostId)}&per_page=1`)
        if (answer.status >= 300 && answer.status !== 404 && answer.status !== 400) throw failureFrom(session, answer)
        const comments = answer.status < 300 ? metric(answer.headers.get('x-wp-total')) : null
        posts.push({ targetId: post.targetId, likes: null, comments, shares: null, views: null, saves: null })
      }
      return { followers: null, posts }
    },
  }
}
