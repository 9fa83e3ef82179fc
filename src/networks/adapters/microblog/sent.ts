/**
 * The microblog network has no idempotency key, so a `POST /2/tweets` whose answer was lost is
 * settled by reading the account's own recent posts: one created since the attempt (with a margin
 * for clock skew), replying to the same post, whose text is ours once the network's rewriting is
 * undone (links shortened to t.co, media links appended, `&`, `<`, `>` escaped).
 */
import type { Api } from './api'

/** Posts read back from the account's timeline (the endpoint's maximum page). */
export const LOOKUP_PAGE = 100
/** Our clock and the network's may differ: look this much before the attempt. */
export const LOOKUP_SKEW_SEC = 60
/** A post may take a moment to show in the timeline: before this, "not found" is not an answer. */
export const LOOKUP_SETTLE_SEC = 20

/** What is saved just before a post is sent, so a lost answer can be looked up. */
export interface Sending {
  /** -1 for the head post, else the thread part's index. */
  step: number
  at: string
  text: string
  replyTo: string | null
}

const unescapeHtml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')

/** The text as the user wrote it, from a post as the network returns it. */
export function originalText(tweet: any): string {
  const long = tweet?.note_tweet
  let text: string = typeof long?.text === 'string' ? long.text : String(tweet?.text ?? '')
  const urls: any[] = (long?.entities ?? tweet?.entities)?.urls ?? []
  for (const u of urls) {
    if (typeof u?.url !== 'string') continue
    if (u.media_key) text = text.replace(new RegExp(`\\s*${u.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), '')
    else if (typeof u.expanded_url === 'string') text = text.replace(u.url, u.expanded_url)
  }
  return unescapeHtml(text).trim()
}

const repliesTo = (tweet: any): string | null => {
  const ref = Array.isArray(tweet?.referenced_tweets)
    ? tweet.referenced_tweets.find((r: any) => r?.type === 'replied_to')
    : null
  return ref ? String(ref.id) : null
}

/** The id of the post this attempt created, or null when the timeline shows none. */
export async function findSent(x: Api, userId: string, sending: Sending): Promise<string | null> {
  const since = new Date(Date.parse(sending.at) - LOOKUP_SKEW_SEC * 1000).toISOString()
  const query = new URLSearchParams({
    max_results: String(LOOKUP_PAGE),
    start_time: since,
    'tweet.fields': 'created_at,entities,referenced_tweets,note_tweet',
  })
  const answer = await x.call('GET', `/2/users/${encodeURIComponent(userId)}/tweets?${query}`)
  const tweets: any[] = Array.isArray(answer.data) ? answer.data : []
  const want = sending.text.trim()
  const hit = tweets.find((t) => originalText(t) === want && repliesTo(t) === sending.replyTo)
  return hit ? String(hit.id) : null
}

/** True while a "not found" may only mean the timeline has not caught up yet. */
export const tooSoonToTell = (sending: Sending, now: Date): number | null => {
  const left = Date.parse(sending.at) + LOOKUP_SETTLE_SEC * 1000 - now.getTime()
  return left > 0 ? Math.ceil(left / 1000) : null
}
