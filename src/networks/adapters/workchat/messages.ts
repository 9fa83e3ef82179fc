/**
 * WORKCHAT_NET's messages: the head as `chat.postMessage` (text, or a section and image blocks),
 * replies with `thread_ts`, and finding a message we may have sent in the channel's history or a
 * thread's replies. `chat.postMessage` has no idempotency key: the attempt's time is saved before
 * the call, and a lost answer is settled by looking for the bot's message with our text since then.
 */
import type { PublishMedia } from '../../adapter'
import { createdId, NetworkFailure } from '../../http'
import { call, escapeText, NETWORK, type Body, type Workchat } from './api'

/** A section block's text limit; a longer caption is sent as several sections. */
export const SECTION_MAX = 3000
/** Messages read when looking for one we may have sent, and the clock skew allowed. */
export const LOOKUP = { limit: 100, skewSec: 120 }

export interface Message {
  ts: string
  text?: string
  user?: string
  bot_id?: string
  files?: Array<{ id: string }>
  reply_count?: number
  reactions?: Array<{ name: string; count: number }>
}

/** The caption's escaped text cut into section-sized pieces (never inside an entity). */
export function sections(text: string): string[] {
  const pieces: string[] = []
  let current = ''
  for (const ch of text) {
    const escaped = escapeText(ch)
    if (current.length + escaped.length > SECTION_MAX) {
      pieces.push(current)
      current = ''
    }
    current += escaped
  }
  if (current) pieces.push(current)
  return pieces
}

/** The blocks of a head with images: the caption in sections, then one image block per image. */
export function imageBlocks(text: string, images: PublishMedia[]): Body[] {
  return [
    ...sections(text).map((piece) => ({ type: 'section', text: { type: 'mrkdwn', text: piece } })),
    ...images.map((m) => ({ type: 'image', image_url: m.url, alt_text: m.altText?.trim() || 'Image' })),
  ]
}

/**
 * Posts one message; a public channel the bot has not joined is joined once and the post sent
 * again (a private one answers `not_in_channel` in words: the app must be invited).
 */
export async function postMessage(chat: Workchat, message: Body): Promise<string> {
  let answer: Body
  try {
    answer = await call(chat, 'chat.postMessage', { json: message })
  } catch (err) {
    if (!(err instanceof NetworkFailure && err.message.endsWith('(not_in_channel)'))) throw err
    const joined = await call(chat, 'conversations.join', { json: { channel: message.channel } }).catch(() => null)
    if (!joined) throw err
    answer = await call(chat, 'chat.postMessage', { json: message })
  }
  return createdId(answer.ts, NETWORK, answer, 'message')
}

/** The network's link to a message. */
export async function permalinkOf(chat: Workchat, channel: string, ts: string): Promise<string> {
  const answer = await call(chat, 'chat.getPermalink', { query: { channel, message_ts: ts } })
  if (typeof answer.permalink !== 'string')
    throw new NetworkFailure('transient', `${NETWORK} did not return the message's link.`)
  return answer.permalink
}

/** The bot's own user id: saved at connection time, else asked (`auth.test`). */
export async function botUserOf(chat: Workchat, credentials: Record<string, unknown>): Promise<string> {
  if (typeof credentials.botUserId === 'string' && credentials.botUserId) return credentials.botUserId
  const me = await call(chat, 'auth.test')
  return String(me.user_id ?? '')
}

/**
 * Text as read back: the network stores a link we sent bare as `<url>` (or `<url|label>`), so
 * both sides are compared with links unwrapped.
 */
const comparable = (text: string | undefined) =>
  (text ?? '').replace(/<((?:https?|mailto):[^|>]+)(?:\|[^>]*)?>/g, '$1').trim()

/** `oldest` for a lookup: the attempt's time less the skew, as the network's seconds.micro. */
const oldestOf = (attemptAt: string) => ((Date.parse(attemptAt) - LOOKUP.skewSec * 1000) / 1000).toFixed(6)

export interface Wanted {
  attemptAt: string
  botUser: string
  /** The escaped text we sent; null: match by file instead. */
  text: string | null
  fileId?: string
}

const matches = (m: Message, wanted: Wanted) =>
  wanted.fileId
    ? (m.files ?? []).some((f) => f.id === wanted.fileId)
    : m.user === wanted.botUser && comparable(m.text) === comparable(wanted.text ?? '')

/** The channel's message we sent since the attempt, if any (`conversations.history`). */
export async function findInChannel(chat: Workchat, channel: string, wanted: Wanted): Promise<string | null> {
  const answer = await call(chat, 'conversations.history', {
    query: { channel, oldest: oldestOf(wanted.attemptAt), limit: String(LOOKUP.limit) },
  })
  const found = ((answer.messages ?? []) as Message[]).find((m) => matches(m, wanted))
  return found?.ts ?? null
}

/** A reply of ours in the thread since the attempt, if any (`conversations.replies`). */
export async function findInThread(
  chat: Workchat,
  channel: string,
  headTs: string,
  wanted: Wanted,
): Promise<string | null> {
  const answer = await call(chat, 'conversations.replies', {
    query: { channel, ts: headTs, oldest: oldestOf(wanted.attemptAt), limit: String(LOOKUP.limit) },
  })
  const found = ((answer.messages ?? []) as Message[]).find((m) => m.ts !== headTs && matches(m, wanted))
  return found?.ts ?? null
}

/** One message as the channel's history has it (for metrics), or null when it is gone. */
export async function readMessage(chat: Workchat, channel: string, ts: string): Promise<Message | null> {
  const answer = await call(chat, 'conversations.history', {
    query: { channel, latest: ts, oldest: ts, inclusive: 'true', limit: '1' },
  })
  return ((answer.messages ?? []) as Message[]).find((m) => m.ts === ts) ?? null
}
