/**
 * SHORTVIDEO_NET's imported posts (TikTok Display API, "List Videos"): `POST /v2/video/list/` with
 * the fields asked for in the query and `{ max_count, cursor }` in the body; the answer's
 * `videos` come newest first with their counts, and `cursor` (a time in milliseconds) with
 * `has_more` names the next page. It needs the `video.list` scope. The Display API documents no
 * comment endpoints, so nothing of the inbox is read here.
 */
import type { ListPostsInput, NetworkPostPage } from '../../adapter'
import { credential, NetworkFailure } from '../../http'
import { metric, NO_FIGURES } from '../../metrics'
import { api, NETWORK } from './api'

/** The reference's maximum per page. */
export const VIDEOS_PER_PAGE = 20
export const VIDEO_LIST_PATH = `/v2/video/list/?fields=${[
  'id',
  'create_time',
  'title',
  'video_description',
  'cover_image_url',
  'share_url',
  'like_count',
  'comment_count',
  'share_count',
  'view_count',
].join(',')}`

type Item = Record<string, any>

export async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  let data: Item
  try {
    data = await api(
      input.fetch,
      input.baseUrl,
      credential(input.credentials, 'accessToken'),
      VIDEO_LIST_PATH,
      input.now,
      {
        json: { max_count: VIDEOS_PER_PAGE, ...(input.cursor ? { cursor: Number(input.cursor) } : {}) },
      },
    )
  } catch (err) {
    if (err instanceof NetworkFailure && err.message.includes('video.publish scope'))
      throw new NetworkFailure(
        'rejected',
        `${NETWORK}: the account did not grant the video.list scope: reconnect it and allow reading its videos.`,
      )
    throw err
  }
  const videos = (Array.isArray(data.videos) ? data.videos : []) as Item[]
  const sinceSec = input.since.getTime() / 1000
  const recent = videos.filter((v) => Number(v.create_time) >= sinceSec)
  const posts = recent.map((v) => ({
    platformPostId: String(v.id),
    permalink: typeof v.share_url === 'string' ? v.share_url : null,
    text: String(v.video_description ?? v.title ?? ''),
    publishedAt: new Date(Number(v.create_time) * 1000),
    mediaUrls: typeof v.cover_image_url === 'string' ? [v.cover_image_url] : [],
    metrics: {
      ...NO_FIGURES,
      likes: metric(v.like_count),
      comments: metric(v.comment_count),
      shares: metric(v.share_count),
      views: metric(v.view_count),
    },
  }))
  const more = data.has_more === true && recent.length === videos.length && data.cursor !== undefined
  return { posts, nextCursor: more ? String(data.cursor) : null }
}
