/**
 * The video-sharing network's inbox (YouTube Data API v3): the channel's uploads (the uploads
 * playlist from `channels.list` contentDetails, `playlistItems.list` paged by `pageToken`, then
 * `videos.list` for snippet and statistics), a video's comment threads (`commentThreads.list`
 * with the replies it embeds, the rest from `comments.list?parentId=`), replies
 * (`comments.insert` with `snippet.parentId`, always the top-level comment: the network nests one
 * level), hiding (`comments.setModerationStatus` heldForReview / published) and deleting
 * (`comments.delete`, which the network allows for the channel's own comments). No comment likes
 * and no mentions are documented. A 404 (video or comment not found) means gone.
 */
import { credential, joinUrl, request } from '../../http'
import {
  CommentGone,
  type CommentActionInput,
  type CommentPage,
  type HideCommentInput,
  type ListCommentsInput,
  type ListPostsInput,
  type NetworkComment,
  type NetworkPostPage,
  type ReplyInput,
  type SentReply,
} from '../../inbox-adapter'
import { numberOrNull } from '../meta/inbox'
import { NETWORK, failureFrom, permalinkOf } from './api'
import { NO_FIGURES } from '../../metrics'

/** Items per page: the most `playlistItems.list` gives (50) and `commentThreads.list` gives (100). */
export const VIDEOSHARE_PAGES = { uploads: 50, threads: 100, replies: 100 }

type Base = { fetch: typeof fetch; baseUrl: string; credentials: Record<string, unknown>; now: Date }

async function call(
  input: Base,
  path: string,
  query: Record<string, string>,
  init: { method?: string; json?: unknown } = {},
) {
  const url = `${joinUrl(input.baseUrl, path)}?${new URLSearchParams(query)}`
  const answer = await request(input.fetch, NETWORK, url, {
    ...init,
    headers: { authorization: `Bearer ${credential(input.credentials, 'accessToken')}` },
  })
  if (answer.status === 404) throw new CommentGone(`${NETWORK}: the comment or its video no longer exists.`)
  if (answer.status >= 300) throw failureFrom(answer, input.now)
  return answer.body ?? {}
}

const date = (raw: unknown, fallback: Date) => {
  const d = typeof raw === 'string' ? new Date(raw) : fallback
  return Number.isNaN(d.getTime()) ? fallback : d
}

/** The channel's uploads, newest first; paging stops at the first page reaching past `since`. */
export async function listChannelVideos(input: ListPostsInput): Promise<NetworkPostPage> {
  const channelId = credential(input.credentials, 'channelId')
  const channel = await call(input, '/youtube/v3/channels', { part: 'contentDetails', id: channelId })
  const uploads = channel.items?.[0]?.contentDetails?.relatedPlaylists?.uploads
  if (typeof uploads !== 'string') return { posts: [], nextCursor: null }
  const list = await call(input, '/youtube/v3/playlistItems', {
    part: 'contentDetails',
    playlistId: uploads,
    maxResults: String(VIDEOSHARE_PAGES.uploads),
    ...(input.cursor ? { pageToken: input.cursor } : {}),
  })
  const ids: string[] = (list.items ?? [])
    .map((i: any) => i.contentDetails?.videoId)
    .filter((id: unknown) => typeof id === 'string')
  const videos = ids.length
    ? await call(input, '/youtube/v3/videos', { part: 'snippet,statistics', id: ids.join(',') })
    : { items: [] }
  const all = (videos.items ?? []).map((v: any) => ({
    platformPostId: String(v.id),
    permalink: permalinkOf(String(v.id)),
    text: [v.snippet?.title, v.snippet?.description].filter((s) => typeof s === 'string' && s).join('\n\n'),
    publishedAt: date(v.snippet?.publishedAt, input.now),
    mediaUrls: typeof v.snippet?.thumbnails?.high?.url === 'string' ? [v.snippet.thumbnails.high.url] : [],
    metrics: {
      ...NO_FIGURES,
      views: numberOrNull(v.statistics?.viewCount),
      likes: numberOrNull(v.statistics?.likeCount),
      comments: numberOrNull(v.statistics?.commentCount),
    },
  }))
  const posts = all.filter((p: { publishedAt: Date }) => p.publishedAt >= input.since)
  const next = typeof list.nextPageToken === 'string' ? list.nextPageToken : null
  return { posts, nextCursor: posts.length < all.length ? null : next }
}

function toComment(raw: any, videoId: string, channelId: string, now: Date): NetworkComment {
  const s = raw.snippet ?? {}
  const author = typeof s.authorChannelId?.value === 'string' ? s.authorChannelId.value : null
  const id = String(raw.id)
  return {
    externalId: id,
    parentExternalId: typeof s.parentId === 'string' ? s.parentId : null,
    postExternalId: videoId,
    author: {
      externalId: author,
      name: typeof s.authorDisplayName === 'string' ? s.authorDisplayName : '',
      handle:
        typeof s.authorDisplayName === 'string' && s.authorDisplayName.startsWith('@') ? s.authorDisplayName : null,
      avatarUrl: typeof s.authorProfileImageUrl === 'string' ? s.authorProfileImageUrl : null,
    },
    text: typeof s.textOriginal === 'string' ? s.textOriginal : typeof s.textDisplay === 'string' ? s.textDisplay : '',
    createdAt: date(s.publishedAt, now),
    permalink: `${permalinkOf(videoId)}&lc=${encodeURIComponent(id)}`,
    fromAccount: author !== null && author === channelId,
    hidden: null,
  }
}

/** One page of threads (newest first), each top-level comment followed by all its replies. */
export async function listVideoComments(input: ListCommentsInput): Promise<CommentPage> {
  const channelId = credential(input.credentials, 'channelId')
  const videoId = input.post.platformPostId
  const body = await call(input, '/youtube/v3/commentThreads', {
    part: 'snippet,replies',
    videoId,
    order: 'time',
    textFormat: 'plainText',
    maxResults: String(VIDEOSHARE_PAGES.threads),
    ...(input.cursor ? { pageToken: input.cursor } : {}),
  })
  const comments: NetworkComment[] = []
  for (const thread of body.items ?? []) {
    const top = toComment(thread.snippet?.topLevelComment ?? {}, videoId, channelId, input.now)
    comments.push(top)
    const embedded: any[] = thread.replies?.comments ?? []
    const total = numberOrNull(thread.snippet?.totalReplyCount) ?? embedded.length
    const replies = total > embedded.length ? await allReplies(input, top.externalId) : embedded
    comments.push(
      ...replies.map((r) => ({ ...toComment(r, videoId, channelId, input.now), parentExternalId: top.externalId })),
    )
  }
  const next = typeof body.nextPageToken === 'string' ? body.nextPageToken : null
  const reachedKnown =
    input.since !== null && comments.some((c) => c.parentExternalId === null && c.createdAt <= input.since!)
  return { comments, nextCursor: reachedKnown ? null : next }
}

async function allReplies(input: Base, parentId: string): Promise<any[]> {
  const out: any[] = []
  let pageToken: string | null = null
  do {
    const body: any = await call(input, '/youtube/v3/comments', {
      part: 'snippet',
      parentId,
      textFormat: 'plainText',
      maxResults: String(VIDEOSHARE_PAGES.replies),
      ...(pageToken ? { pageToken } : {}),
    })
    out.push(...(body.items ?? []))
    pageToken = typeof body.nextPageToken === 'string' ? body.nextPageToken : null
  } while (pageToken)
  return out
}

export async function replyToVideoComment(input: ReplyInput): Promise<SentReply> {
  const parentId = input.comment.parentExternalId ?? input.comment.externalId
  const body = await call(
    input,
    '/youtube/v3/comments',
    { part: 'snippet' },
    { method: 'POST', json: { snippet: { parentId, textOriginal: input.text } } },
  )
  const id = String(body.id)
  const videoId = input.comment.postExternalId
  return { externalId: id, permalink: videoId ? `${permalinkOf(videoId)}&lc=${encodeURIComponent(id)}` : null }
}

/** Held for review is hidden from the public and can be published again. */
export async function hideVideoComment(input: HideCommentInput): Promise<void> {
  await call(
    input,
    '/youtube/v3/comments/setModerationStatus',
    { id: input.comment.externalId, moderationStatus: input.hidden ? 'heldForReview' : 'published' },
    { method: 'POST' },
  )
}

export async function deleteVideoComment(input: CommentActionInput): Promise<void> {
  await call(input, '/youtube/v3/comments', { id: input.comment.externalId }, { method: 'DELETE' })
}
