/**
 * The photo network's audio search for reels (Instagram Audio API, `GET /ig_audio`), on the
 * Facebook-login Graph host only: `audio_type` (music or original_sound), the searching account's
 * `user_id`, an optional `search_query` (without one the network answers trending tracks), and
 * Graph cursor paging (`paging.cursors.after`, sent back as `after`). Each asset's `audio_id` is
 * what a reel's `audio_configuration` takes. Followed:
 * https://developers.facebook.com/documentation/instagram-platform/content-publishing/audio-api
 */
import type { AudioInput, AudioPage, AudioTrack } from '../../adapter'
import { credential } from '../../http'
import { accountGraph } from '../meta/container-publish'
import { PHOTO_HOST } from './plan'

export async function listPhotoAudio(input: AudioInput): Promise<AudioPage> {
  const graph = accountGraph(PHOTO_HOST, input)
  const body = await graph.get('ig_audio', {
    audio_type: input.kind,
    user_id: credential(input.credentials, 'igUserId'),
    ...(input.query ? { search_query: input.query } : {}),
    ...(input.cursor ? { after: input.cursor } : {}),
  })
  const rows: unknown[] = Array.isArray(body.data) ? body.data : []
  const after = body.paging?.cursors?.after
  return {
    audio: rows.map(track).filter((t): t is AudioTrack => t !== null),
    // The last page has no `next` link, though it may still carry cursors.
    nextCursor: typeof after === 'string' && after !== '' && body.paging?.next ? after : null,
  }
}

/** One asset in the neutral shape; an entry without an id is of no use to a reel and is left out. */
function track(row: unknown): AudioTrack | null {
  const r = (row ?? {}) as Record<string, unknown>
  const id = typeof r.audio_id === 'string' || typeof r.audio_id === 'number' ? String(r.audio_id) : ''
  if (id === '') return null
  const artist =
    typeof r.display_artist === 'string' && r.display_artist
      ? r.display_artist
      : typeof r.ig_username === 'string' && r.ig_username
        ? r.ig_username
        : null
  const ms = Number(r.duration_in_ms)
  return {
    id,
    title: typeof r.title === 'string' ? r.title : '',
    artist,
    durationSec: Number.isFinite(ms) && ms > 0 ? Math.round(ms / 100) / 10 : null,
  }
}
