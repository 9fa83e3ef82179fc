/**
 * The developer blogging network (DEV, Forem API v1): one article per target, `POST /api/articles`
 * with the title, the caption as its Markdown body, the per-target options (tags, canonical URL,
 * description, series, published) and the first image's public URL as the cover (`main_image`:
 * the API takes no upload). The API has no idempotency key, so the attempt is recorded before the
 * call, and a call whose answer was lost is settled by finding the article among the account's own
 * (`/api/articles/me/all`, same title and body, not older than the attempt). The API has no delete.
 */
import type {
  NetworkAdapter,
  PendingInput,
  PublishInput,
  PublishProgress,
  PublishResult,
  TargetContent,
} from '../../adapter'
import { asFailedResult, createdId, NetworkFailure } from '../../http'
import { metric } from '../../metrics'
import type { AdapterOptions } from '../options'
import { listComments, listPosts } from './inbox'
import { call, NETWORK, type OwnArticle, ownArticles, type Session, sessionOf } from './api'

/** Pages of the account's articles searched for a call whose answer was lost (newest first). */
const RECONCILE_PAGES = 3
/** Pages of the account's articles read for metrics. */
const INSIGHT_PAGES = 10
/** Clock difference tolerated between us and the network when matching an article's time. */
const CLOCK_SKEW_MS = 5 * 60_000

interface DevblogProgress extends PublishProgress {
  /** When the create call was about to be sent (recorded before it, never cleared). */
  sentAt?: string
}

type OptionValue = string | number | boolean | string[]

const text = (v: OptionValue | undefined): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)

/** The article as the create call sends it. */
export function articleOf(content: TargetContent, title: string): Record<string, unknown> {
  const options: Record<string, OptionValue> = content.targetOptions ?? {}
  const tags = Array.isArray(options.tags) ? options.tags.map((t) => t.trim()).filter((t) => t !== '') : []
  const cover = content.media.find((m) => m.type === 'IMAGE')
  return {
    title,
    body_markdown: content.text,
    published: options.published !== false,
    ...(tags.length ? { tags } : {}),
    ...(text(options.canonicalUrl) ? { canonical_url: text(options.canonicalUrl) } : {}),
    ...(text(options.description) ? { description: text(options.description) } : {}),
    ...(text(options.series) ? { series: text(options.series) } : {}),
    ...(cover ? { main_image: cover.url } : {}),
  }
}

/** The title to send: the target's, else the caption's first line; none is a refusal in words. */
function titleOf(content: TargetContent): string {
  const title = content.title?.trim() || content.text.split(/\r?\n/, 1)[0]!.trim()
  if (!title) throw new NetworkFailure('rejected', `${NETWORK}: an article needs a title; set one on the post.`)
  return title
}

/** The article made by our attempt at `sentAt`, if the account has it. */
async function findSent(session: Session, content: TargetContent, sentAt: string): Promise<OwnArticle | null> {
  const title = titleOf(content)
  const since = Date.parse(sentAt) - CLOCK_SKEW_MS
  const articles = await ownArticles(session, RECONCILE_PAGES)
  return (
    articles.find(
      (a) =>
        a.title === title &&
        (a.bodyMarkdown === null || a.bodyMarkdown.trim() === content.text.trim()) &&
        (a.publishedAt === null || Date.parse(a.publishedAt) >= since),
    ) ?? null
  )
}

async function publishArticle(input: PublishInput | PendingInput): Promise<PublishResult> {
  const session = sessionOf(input)
  const progress = input.progress as DevblogProgress
  if (progress.headId)
    return { status: 'published', platformPostId: progress.headId, permalink: progress.headPermalink ?? '' }
  const unconfirmed = 'unconfirmed' in input && input.unconfirmed
  if (progress.sentAt) {
    // A create call went out before without a confirmed answer: look for its article first.
    const found = await findSent(session, input.content, progress.sentAt)
    if (found) {
      await input.saveProgress({ headId: found.id, headPermalink: found.url })
      return { status: 'published', platformPostId: found.id, permalink: found.url }
    }
    if (unconfirmed) return { status: 'absent' }
  } else if (unconfirmed) {
    return { status: 'absent' }
  }
  const article = articleOf(input.content, titleOf(input.content))
  await input.saveProgress({ sentAt: input.now.toISOString() })
  const answer = await call(session, 'articles', { method: 'POST', json: { article } })
  const id = createdId(answer.body?.id, NETWORK, answer.body, 'article')
  const permalink = typeof answer.body?.url === 'string' ? answer.body.url : ''
  await input.saveProgress({ headId: id, headPermalink: permalink })
  return { status: 'published', platformPostId: id, permalink }
}

export function createDevblogAdapter(_options: AdapterOptions): NetworkAdapter {
  const run = async (input: PublishInput | PendingInput): Promise<PublishResult> => {
    try {
      return await publishArticle(input)
    } catch (err) {
      return asFailedResult(err)
    }
  }
  return {
    publish: run,
    checkStatus: run,
    listPosts,
    listComments,

    async verifyCredentials(input) {
      const me = (await call(sessionOf(input), 'users/me')).body ?? {}
      if (me.id === undefined || me.id === null)
        throw new NetworkFailure('rejected', `${NETWORK}: the API key names no user.`)
      const username = typeof me.username === 'string' && me.username ? me.username : String(me.id)
      return { username, externalId: String(me.id), credentials: input.credentials }
    },

    async fetchInsights(input) {
      const articles = new Map((await ownArticles(sessionOf(input), INSIGHT_PAGES)).map((a) => [a.id, a.raw]))
      return {
        followers: null,
        posts: input.posts.map((post) => {
          const a = articles.get(post.platformPostId)
          return {
            targetId: post.targetId,
            likes: metric(a?.public_reactions_count),
            comments: metric(a?.comments_count),
            shares: null,
            views: metric(a?.page_views_count),
            saves: null,
          }
        }),
      }
    },
  }
}
