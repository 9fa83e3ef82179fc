/**
 * The video fake's inbox endpoints (YouTube Data API v3 reference: playlistItems.list,
 * playlistItems.list of the uploads playlist, commentThreads.list (published threads unless
 * `moderationStatus` asks otherwise) with at most 5 replies embedded, comments.list by parentId, comments.insert
 * (snippet.parentId and textOriginal required), comments.setModerationStatus (heldForReview,
 * published, rejected; 204), comments.delete (the channel's own comments; 204)): `maxResults`
 * with its per-method maximum, `pageToken`/`nextPageToken`, Google error bodies (404
 * commentNotFound / videoNotFound). The bearer token is checked by the fake's `authed`.
 */
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'
import type { FakeComment } from './graph-inbox'
import { googleError } from './video-share'

export interface VideoInboxContext {
  channelId: string
  channelTitle: () => string
  authed: (req: FakeRequest) => FakeReply | null
  videoIds: () => string[]
  /** The channel's uploads, newest first. */
  uploads: () => Array<{ id: string; publishedAt: string }>
  nextId: () => string
  now: () => Date
}

/** The reference's embedded-replies limit on a comment thread. */
const EMBEDDED_REPLIES = 5

function pageOf<T>(rows: T[], q: URLSearchParams, max: number): { items: T[]; nextPageToken?: string } | null {
  const size = Math.min(Math.max(Number(q.get('maxResults') ?? 5) || 5, 1), max)
  const token = q.get('pageToken')
  const from = token ? Number(Buffer.from(token, 'base64url').toString().replace(/^p/, '')) : 0
  if (!Number.isInteger(from) || from < 0) return null
  const items = rows.slice(from, from + size)
  const end = from + items.length
  return { items, ...(end < rows.length ? { nextPageToken: Buffer.from(`p${end}`).toString('base64url') } : {}) }
}

export function videoInboxRoutes(ctx: VideoInboxContext) {
  const comments: FakeComment[] = []
  const moderation = new Map<string, string>()
  const live = (id: string) => comments.find((c) => c.id === id && !c.deleted)
  const newest = (a: FakeComment, b: FakeComment) => b.timestamp.getTime() - a.timestamp.getTime()
  const invalidToken = googleError(400, 'invalidPageToken', 'The request specifies an invalid page token.')
  const resource = (c: FakeComment) => ({
    kind: 'youtube#comment',
    id: c.id,
    snippet: {
      channelId: ctx.channelId,
      videoId: c.postId,
      textDisplay: c.text,
      textOriginal: c.text,
      ...(c.parentId ? { parentId: c.parentId } : {}),
      authorDisplayName: c.username,
      authorProfileImageUrl: `https://yt.example/${c.authorId}.jpg`,
      authorChannelUrl: `https://www.youtube.com/channel/${c.authorId}`,
      authorChannelId: { value: c.authorId },
      likeCount: 0,
      publishedAt: c.timestamp.toISOString(),
      updatedAt: c.timestamp.toISOString(),
    },
  })
  const repliesOf = (id: string) =>
    comments
      .filter((r) => r.parentId === id && !r.deleted)
      .sort(newest)
      .reverse()
  const guard = (handler: (req: FakeRequest) => FakeReply) => (req: FakeRequest) => ctx.authed(req) ?? handler(req)

  const routes: FakeRoute[] = [
    [
      'GET',
      '/youtube/v3/playlistItems',
      guard((req) => {
        const q = req.query
        if (q.get('playlistId') !== `UU${ctx.channelId.slice(2)}`)
          return googleError(
            404,
            'playlistNotFound',
            'The playlist identified with the playlistId parameter cannot be found.',
          )
        const page = pageOf(ctx.uploads(), q, 50)
        if (!page) return invalidToken
        const items = page.items.map((v) => ({
          kind: 'youtube#playlistItem',
          id: `PLI${v.id}`,
          contentDetails: { videoId: v.id, videoPublishedAt: v.publishedAt },
        }))
        return { json: { kind: 'youtube#playlistItemListResponse', ...page, items } }
      }),
    ],
    [
      'GET',
      '/youtube/v3/commentThreads',
      guard((req) => {
        const q = req.query
        const videoId = q.get('videoId')
        if (!q.get('part')?.includes('snippet'))
          return googleError(400, 'invalidPart', 'The part parameter is required.')
        if (!videoId || !ctx.videoIds().includes(videoId))
          return googleError(404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.')
        // moderationStatus defaults to published: held or rejected threads stay out of the list.
        const wanted = q.get('moderationStatus') ?? 'published'
        const top = comments
          .filter((c) => c.postId === videoId && !c.parentId && !c.deleted)
          .filter((c) => (moderation.get(c.id) ?? 'published') === wanted)
          .sort(newest)
        const page = pageOf(top, q, 100)
        if (!page) return invalidToken
        const withReplies = q.get('part')!.split(',').includes('replies')
        const items = page.items.map((c) => {
          const replies = repliesOf(c.id)
          return {
            kind: 'youtube#commentThread',
            id: c.id,
            snippet: {
              videoId,
              topLevelComment: resource(c),
              canReply: true,
              totalReplyCount: replies.length,
              isPublic: true,
            },
            ...(withReplies && replies.length
              ? { replies: { comments: replies.slice(0, EMBEDDED_REPLIES).map(resource) } }
              : {}),
          }
        })
        return { json: { kind: 'youtube#commentThreadListResponse', ...page, items } }
      }),
    ],
    [
      'GET',
      '/youtube/v3/comments',
      guard((req) => {
        const parentId = req.query.get('parentId') ?? ''
        if (!live(parentId)) return googleError(404, 'commentNotFound', 'The comment could not be found.')
        const page = pageOf(repliesOf(parentId), req.query, 100)
        if (!page) return invalidToken
        return { json: { kind: 'youtube#commentListResponse', ...page, items: page.items.map(resource) } }
      }),
    ],
    [
      'POST',
      '/youtube/v3/comments',
      guard((req) => {
        if (req.query.get('part') !== 'snippet') return googleError(400, 'invalidPart', 'part=snippet is required.')
        const snippet = req.json().snippet ?? {}
        if (typeof snippet.textOriginal !== 'string' || !snippet.textOriginal)
          return googleError(400, 'commentTextRequired', 'The comment resource must contain snippet.textOriginal.')
        const parent = live(snippet.parentId ?? '')
        if (!parent) return googleError(404, 'parentCommentNotFound', 'The parent comment could not be found.')
        if (parent.parentId)
          return googleError(400, 'operationNotSupported', 'Replies can only be made to top-level comments.')
        const c: FakeComment = {
          id: `${parent.id}.${ctx.nextId()}`,
          postId: parent.postId,
          parentId: parent.id,
          text: snippet.textOriginal,
          authorId: ctx.channelId,
          username: ctx.channelTitle(),
          timestamp: ctx.now(),
          hidden: false,
          liked: false,
          deleted: false,
        }
        comments.push(c)
        return { json: resource(c) }
      }),
    ],
    [
      'POST',
      '/youtube/v3/comments/setModerationStatus',
      guard((req) => {
        const status = req.query.get('moderationStatus') ?? ''
        if (!['heldForReview', 'published', 'rejected'].includes(status))
          return googleError(400, 'invalidModerationStatus', 'The moderationStatus parameter is invalid.')
        const ids = (req.query.get('id') ?? '').split(',')
        const found = ids.map(live)
        if (found.some((c) => !c)) return googleError(404, 'commentNotFound', 'The comment could not be found.')
        for (const c of found) {
          c!.hidden = status !== 'published'
          moderation.set(c!.id, status)
        }
        return { status: 204 }
      }),
    ],
    [
      'DELETE',
      '/youtube/v3/comments',
      guard((req) => {
        const c = live(req.query.get('id') ?? '')
        if (!c) return googleError(404, 'commentNotFound', 'The comment could not be found.')
        if (c.authorId !== ctx.channelId)
          return {
            status: 403,
            json: {
              error: {
                code: 403,
                message: 'The comment cannot be deleted by this channel.',
                errors: [{ reason: 'forbidden', domain: 'youtube.comment' }],
              },
            },
          }
        c.deleted = true
        return { status: 204 }
      }),
    ],
  ]
  return { routes, comments, moderation }
}
