/**
 * Publishing a local post exactly once. The network takes no idempotency key, so the time of the
 * first attempt is saved before the create call and the post's name the moment the network gives
 * it. An attempt after a call whose answer was lost (a timeout, a 5xx, the engine losing track)
 * first lists the location's posts for one with our summary, topic and event title created since
 * that time; only when there is none is the post created. A created post may still be processed
 * by the network (`PROCESSING`): it is followed through the engine's pending state until it is
 * `LIVE` (published) or `REJECTED` by the content policy (failed).
 * https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/create,
 * .../localPosts/list (20 a page by default, 100 at most), .../localPosts/get
 */
import type { PendingInput, PublishInput, PublishResult } from '../../adapter'
import { NetworkFailure, createdId } from '../../http'
import { NETWORK, localClient, locationNameOf, v4, type LocalCall } from './api'
import { localPostBody, sameLocalPost } from './post'

/** Seconds between checks of a post the network is still processing, and how many checks at most. */
export const PROCESSING_POLL_SEC = 60
export const MAX_PROCESSING_POLLS = 10
/** Posts listed when looking for one whose answer was lost: 100 a page, 10 pages at most. */
export const LOOKUP_PAGE_SIZE = 100
export const MAX_LOOKUP_PAGES = 10
/** Clock difference allowed between our attempt time and the network's `createTime`. */
export const MATCH_SKEW_SEC = 120
/**
 * Where a post is shown when the network gives no `searchUrl` (its link in Google Search): the
 * business owner's Business Profile manager.
 */
export const FALLBACK_PERMALINK = 'https://business.google.com/'

export interface LocalPending {
  stage: 'processing'
  name: string
  polls: number
}

const permalinkOf = (post: Record<string, any>) =>
  typeof post.searchUrl === 'string' && /^https:\/\//.test(post.searchUrl) ? post.searchUrl : FALLBACK_PERMALINK

/** What the network's answer about a post means: published, still processing, or refused. */
export function outcome(post: Record<string, any>, name: string, polls: number): PublishResult {
  if (post.state === 'REJECTED')
    return {
      status: 'failed',
      kind: 'rejected',
      message: `${NETWORK}: the network rejected the post under its content policy (it stays on the profile as rejected; edit and publish again).`,
    }
  if (post.state === 'PROCESSING' && polls < MAX_PROCESSING_POLLS)
    return {
      status: 'pending',
      state: { stage: 'processing', name, polls: polls + 1 } satisfies LocalPending,
      checkAfterSec: PROCESSING_POLL_SEC,
    }
  const warnings =
    post.state === 'PROCESSING' ? ['The network is still processing the post; it shows once processing ends.'] : []
  return {
    status: 'published',
    platformPostId: name,
    permalink: permalinkOf(post),
    ...(warnings.length > 0 ? { warnings } : {}),
  }
}

/** The post as the network holds it now. */
async function current(call: LocalCall, input: PublishInput, name: string, polls: number): Promise<PublishResult> {
  const post = await call('GET', v4(input.baseUrl, name))
  return outcome(post, name, polls)
}

/** A post on the location matching `body`, created since the first attempt (less skew); null when none. */
async function findLost(
  call: LocalCall,
  input: PublishInput,
  body: Record<string, unknown>,
): Promise<Record<string, any> | null> {
  const attemptAt = typeof input.progress.localAttemptAt === 'string' ? Date.parse(input.progress.localAttemptAt) : NaN
  if (Number.isNaN(attemptAt)) return null
  const since = attemptAt - MATCH_SKEW_SEC * 1000
  const url = v4(input.baseUrl, `${locationNameOf(input.credentials)}/localPosts`)
  let pageToken: string | null = null
  for (let page = 0; page < MAX_LOOKUP_PAGES; page++) {
    const listed = await call('GET', url, {
      query: { pageSize: String(LOOKUP_PAGE_SIZE), ...(pageToken ? { pageToken } : {}) },
    })
    const posts: Array<Record<string, any>> = Array.isArray(listed.localPosts) ? listed.localPosts : []
    const ours = posts.find(
      (p) => typeof p.name === 'string' && sameLocalPost(p, body) && Date.parse(String(p.createTime)) >= since,
    )
    if (ours) return ours
    pageToken = typeof listed.nextPageToken === 'string' && listed.nextPageToken ? listed.nextPageToken : null
    if (!pageToken) break
  }
  return null
}

/** Saves the post's name (and its link) at once, then says where it stands. */
async function adopt(input: PublishInput, post: Record<string, any>): Promise<PublishResult> {
  const name = createdId(post?.name, NETWORK, post, 'local post')
  await input.saveProgress({ headId: name, headPermalink: permalinkOf(post) })
  return outcome(post, name, 0)
}

export async function publishLocalPost(input: PublishInput): Promise<PublishResult> {
  const call = localClient(input)
  if (input.progress.headId) return current(call, input, input.progress.headId, 0)
  const body = localPostBody(input.content)
  const location = locationNameOf(input.credentials)
  if (input.progress.localAttemptAt !== undefined) {
    const lost = await findLost(call, input, body)
    if (lost) return adopt(input, lost)
  } else {
    await input.saveProgress({ localAttemptAt: input.now.toISOString() })
  }
  const created = await call('POST', v4(input.baseUrl, `${location}/localPosts`), { json: body })
  return adopt(input, created)
}

/** A post still processing, or a publish the engine lost track of (`unconfirmed`: never creates). */
export async function checkLocalPost(input: PendingInput): Promise<PublishResult> {
  const call = localClient(input)
  const pending = input.progress.pending as LocalPending | undefined
  if (pending?.stage === 'processing') return current(call, input, pending.name, pending.polls)
  if (!input.unconfirmed) return publishLocalPost(input)
  if (input.progress.headId) return current(call, input, input.progress.headId, 0)
  let body: Record<string, unknown>
  try {
    body = localPostBody(input.content)
  } catch (err) {
    // Content the network would refuse was never created.
    if (err instanceof NetworkFailure && err.kind === 'rejected') return { status: 'absent' }
    throw err
  }
  const lost = await findLost(call, input, body)
  return lost ? adopt(input, lost) : { status: 'absent' }
}
