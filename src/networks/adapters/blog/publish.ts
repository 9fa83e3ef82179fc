/**
 * Publishing one target on the blog network, exactly once. The network has no idempotency key, so
 * the attempt's time is saved before the post is created and the id right after. A later attempt
 * that finds a saved time but no id (the answer was a 5xx, cut off, or never came) first reads the
 * blog's newest posts (`/posts`, or `/posts/draft` and `/posts/queue` for those states, in NPF)
 * for one with our blocks and tags made since that time, and creates the post only when there is
 * none.
 */
import type { PendingInput, PublishInput, PublishResult } from '../../adapter'
import { createdId, downloadMedia } from '../../http'
import { blogClient, blogNameOf, blogPath, POST_URL, type BlogCall } from './api'
import { buildPost, fingerprint, identifierOf, postJson, type PostParams } from './npf'

/** The newest posts read when looking for an unconfirmed one (the reference's page maximum). */
export const POST_LOOKUP_LIMIT = 20
/** Clock skew allowed between our attempt time and the network's post timestamp. */
export const POST_MATCH_SKEW_SEC = 120

/** The list a post of this state appears in, for its owner. */
const LIST_OF_STATE: Record<string, string> = {
  published: '/posts',
  private: '/posts',
  draft: '/posts/draft',
  queue: '/posts/queue',
}

const published = (input: Pick<PublishInput, 'credentials'>, id: string): PublishResult => ({
  status: 'published',
  platformPostId: id,
  permalink: POST_URL(blogNameOf(input.credentials), id),
})

export async function publishPost(input: PublishInput | PendingInput): Promise<PublishResult> {
  const { progress } = input
  if (progress.headId) return published(input, progress.headId)
  const params = buildPost(input.content)
  const call = blogClient(input)
  if (typeof progress.headAttemptAt === 'string') {
    const found = await findPost(call, input, params)
    if (found) return found
  }
  await input.saveProgress({ headAttemptAt: input.now.toISOString() })
  const body = await multipart(input, params)
  const answer = await call('POST', blogPath(input.credentials, '/posts'), { body })
  const id = createdId(answer?.id, 'BLOG_NET', answer, 'post')
  await input.saveProgress({ headId: id })
  return published(input, id)
}

/** The engine lost track of a publish: the saved id, the post found on the blog, or absent. */
export async function settleUnconfirmed(input: PendingInput): Promise<PublishResult> {
  if (input.progress.headId) return published(input, input.progress.headId)
  if (typeof input.progress.headAttemptAt !== 'string') return { status: 'absent' }
  const found = await findPost(blogClient(input), input, buildPost(input.content))
  return found ?? { status: 'absent' }
}

/** The JSON part first, then each media item under its identifier (the reference's multipart form). */
async function multipart(input: PublishInput | PendingInput, params: PostParams): Promise<FormData> {
  const form = new FormData()
  form.append('json', new Blob([JSON.stringify(postJson(params))], { type: 'application/json' }))
  const media = input.content.media
  for (let i = 0; i < media.length; i++) {
    const item = media[i]!
    const bytes = await downloadMedia(input.fetch, item)
    const name = `${identifierOf(i)}.${item.mimeType.split('/')[1] ?? 'bin'}`
    form.append(identifierOf(i), new Blob([bytes as BlobPart], { type: item.mimeType }), name)
  }
  return form
}

/** A post on the blog with our blocks and tags, made at or after the saved attempt (less skew). */
async function findPost(
  call: BlogCall,
  input: PublishInput | PendingInput,
  params: PostParams,
): Promise<PublishResult | null> {
  const attemptAt = Date.parse(String(input.progress.headAttemptAt))
  const list = LIST_OF_STATE[params.state] ?? '/posts'
  const answer = await call('GET', blogPath(input.credentials, list), {
    query: { npf: 'true', limit: String(POST_LOOKUP_LIMIT) },
  })
  const posts: Array<Record<string, any>> = Array.isArray(answer.posts) ? answer.posts : []
  const ours = fingerprint(params.content, params.tags)
  const since = (attemptAt - POST_MATCH_SKEW_SEC * 1000) / 1000
  const match = posts.find(
    (p) =>
      Array.isArray(p.content) &&
      fingerprint(p.content, Array.isArray(p.tags) ? p.tags : []) === ours &&
      (typeof p.timestamp !== 'number' || Number.isNaN(since) || p.timestamp >= since),
  )
  if (!match) return null
  const id = typeof match.id_string === 'string' ? match.id_string : String(match.id)
  await input.saveProgress({ headId: id })
  return published(input, id)
}
