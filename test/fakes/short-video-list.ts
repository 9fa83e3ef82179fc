/**
 * The short-video fake's Display API "List Videos": `POST /v2/video/list/?fields=...` (the
 * `fields` query required), JSON `{ max_count (1..20, default 10), cursor }` where the cursor is a
 * UTC time in milliseconds: videos created before it, newest first; the answer's `cursor` is the
 * oldest listed video's time, `has_more` whether older ones remain. Without the `video.list` scope
 * the answer is 401 `scope_not_authorized`.
 */
import type { FakeReply, FakeRequest } from './fake-server'

export interface FakeVideo {
  id: string
  create_time: number
  title: string
  video_description: string
  share_url: string
  cover_image_url: string
  like_count: number
  comment_count: number
  share_count: number
  view_count: number
}

const error = (status: number, code: string, message: string): FakeReply => ({
  status,
  json: { data: {}, error: { code, message, log_id: `log_${code}` } },
})

export function listVideos(req: FakeRequest, state: { videos: FakeVideo[]; scopes: Set<string> }): FakeReply {
  if (!state.scopes.has('video.list'))
    return error(
      401,
      'scope_not_authorized',
      'The user did not authorize the scope required for completing this request.',
    )
  const fields = (req.query.get('fields') ?? '').split(',').filter((f) => f !== '')
  if (fields.length === 0) return error(400, 'invalid_params', 'fields is required.')
  const body = req.json()
  const max = body.max_count ?? 10
  if (!Number.isInteger(max) || max < 1 || max > 20) return error(400, 'invalid_params', 'max_count must be 1 to 20.')
  const before = typeof body.cursor === 'number' ? body.cursor : Number.POSITIVE_INFINITY
  const older = [...state.videos].reverse().filter((v) => v.create_time * 1000 < before)
  const page = older.slice(0, max)
  const pick = (v: FakeVideo) =>
    Object.fromEntries(fields.map((f) => [f, (v as unknown as Record<string, unknown>)[f]]))
  return {
    json: {
      data: {
        videos: page.map(pick),
        cursor: page.length ? page.at(-1)!.create_time * 1000 : before === Number.POSITIVE_INFINITY ? 0 : before,
        has_more: older.length > page.length,
      },
      error: { code: 'ok', message: '', log_id: 'log_ok' },
    },
  }
}
