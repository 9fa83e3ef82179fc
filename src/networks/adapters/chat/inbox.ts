/**
 * CHAT_NET's inbox, through a bot (a webhook cannot read its channel): the bot's own messages in
 * the channel are its posts (`GET /channels/{id}/messages`, paged with `before`), and the replies
 * to a post are the channel's messages whose `message_reference` points at it or at a reply
 * already in its thread (paged forward with `after`). A reply is a message with
 * `message_reference`; like is the bot's 👍 reaction; delete removes the message (the bot needs
 * Manage Messages for other people's). The network has no hiding.
 */
import type {
  CommentActionInput,
  CommentPage,
  ListCommentsInput,
  ListPostsInput,
  NetworkComment,
  NetworkPost,
  NetworkPostPage,
  ReplyInput,
  SentReply,
} from '../../adapter'
import { CommentGone } from '../../inbox-adapter'
import { createdId, NetworkFailure } from '../../http'
import { call, channelOf, NETWORK, NO_PINGS, nonceOf, permalinkOf, type Channel } from './api'
import { NO_FIGURES } from '../../metrics'

/** Messages per page (the reference allows 1 to 100). */
export const PAGE_LIMIT = 100
/** Thread members carried in the comments cursor, so a reply to a reply on a later page is known. */
const THREAD_MEMORY = 200
/** The reaction a like adds, URL-encoded as the reference asks. */
export const LIKE_EMOJI = '👍'

interface Message {
  id: string
  channel_id?: string
  type?: number
  content?: string
  timestamp?: string
  author?: { id?: string; username?: string; global_name?: string | null; avatar?: string | null }
  webhook_id?: string
  message_reference?: { message_id?: string }
  reactions?: Array<{ count?: number }>
  attachments?: Array<{ url?: string }>
}

/** The network's answer for a message that no longer exists (or a reply to one). */
const isGone = (err: unknown) => err instanceof NetworkFailure && /the message no longer exists/.test(err.message)

function botChannel(input: ListPostsInput | ListCommentsInput | CommentActionInput): Channel {
  const channel = channelOf(input)
  if (channel.kind !== 'bot')
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: a webhook cannot read its channel; connect the account through a bot to read replies.`,
    )
  return channel
}

async function botUserId(channel: Channel): Promise<string> {
  const me = (await call(channel, 'GET', `${channel.apiBase}/users/@me`)).body ?? {}
  return String(me.id ?? '')
}

async function readPage(channel: Channel, query: Record<string, string>): Promise<Message[]> {
  const qs = new URLSearchParams({ limit: String(PAGE_LIMIT), ...query }).toString()
  const answer = await call(channel, 'GET', `${channel.sendUrl}?${qs}`)
  return Array.isArray(answer.body) ? (answer.body as Message[]) : []
}

const guildOf = (input: { credentials: Record<string, unknown> }) =>
  typeof input.credentials.guildId === 'string' ? input.credentials.guildId : null

const reactionsOf = (m: Message) => (m.reactions ?? []).reduce((sum, r) => sum + (Number(r.count) || 0), 0)

/** The bot's own messages that start something (not replies), newest first, paged with `before`. */
export async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const channel = botChannel(input)
  const me = await botUserId(channel)
  const page = await readPage(channel, input.cursor ? { before: input.cursor } : {})
  const posts: NetworkPost[] = []
  let reachedSince = false
  for (const m of page) {
    const at = new Date(m.timestamp ?? 0)
    if (at < input.since) {
      reachedSince = true
      break
    }
    if (m.author?.id !== me || m.message_reference?.message_id) continue
    posts.push({
      platformPostId: m.id,
      permalink: permalinkOf(guildOf(input), channel.channelId!, m.id),
      text: m.content ?? '',
      publishedAt: at,
      mediaUrls: (m.attachments ?? []).map((a) => a.url).filter((u): u is string => typeof u === 'string'),
      metrics: { ...NO_FIGURES, likes: reactionsOf(m) },
    })
  }
  const last = page.at(-1)
  return { posts, nextCursor: !reachedSince && page.length === PAGE_LIMIT && last ? last.id : null }
}

interface ThreadCursor {
  after: string
  thread: string[]
}

function readCursor(cursor: string | null, postId: string): ThreadCursor {
  if (!cursor) return { after: postId, thread: [postId] }
  const [after, ids] = cursor.split('|')
  return { after: after || postId, thread: [postId, ...(ids ? ids.split(',') : [])] }
}

const writeCursor = (c: ThreadCursor, postId: string) =>
  `${c.after}|${c.thread
    .filter((id) => id !== postId)
    .slice(-THREAD_MEMORY)
    .join(',')}`

const snowflakeOrder = (a: Message, b: Message) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)

/**
 * The replies to one post, oldest first, from the messages after it. The cursor carries the last
 * message read and the thread's ids, so the next call goes on where this one stopped.
 */
export async function listComments(input: ListCommentsInput): Promise<CommentPage> {
  const channel = botChannel(input)
  const me = await botUserId(channel)
  const postId = input.post.platformPostId
  const cursor = readCursor(input.cursor, postId)
  const page = (await readPage(channel, { after: cursor.after })).sort(snowflakeOrder)
  const members = new Set(cursor.thread)
  const comments: NetworkComment[] = []
  for (const m of page) {
    const parent = m.message_reference?.message_id
    if (!parent || !members.has(parent)) continue
    members.add(m.id)
    comments.push(commentOf(m, { parent, postId, me, guildId: guildOf(input), channelId: channel.channelId! }))
  }
  const next = { after: page.at(-1)?.id ?? cursor.after, thread: [...members] }
  return { comments, nextCursor: page.length === PAGE_LIMIT ? writeCursor(next, postId) : null }
}

function commentOf(
  m: Message,
  at: { parent: string; postId: string; me: string; guildId: string | null; channelId: string },
): NetworkComment {
  const avatar =
    m.author?.avatar && m.author.id ? `https://cdn.discordapp.com/avatars/${m.author.id}/${m.author.avatar}.png` : null
  return {
    externalId: m.id,
    parentExternalId: at.parent === at.postId ? null : at.parent,
    postExternalId: at.postId,
    author: {
      externalId: m.author?.id ?? null,
      name: m.author?.global_name || m.author?.username || 'unknown',
      handle: m.author?.username ?? null,
      avatarUrl: avatar,
    },
    text: m.content ?? '',
    createdAt: new Date(m.timestamp ?? 0),
    permalink: permalinkOf(at.guildId, at.channelId, m.id),
    fromAccount: m.author?.id === at.me,
    hidden: null,
  }
}

/** A reply to the message, with a nonce from the reply's key so a retried call makes no second one. */
export async function replyToComment(input: ReplyInput): Promise<SentReply> {
  const channel = botChannel(input)
  try {
    const answer = await call(channel, 'POST', channel.sendUrl, {
      json: {
        content: input.text,
        allowed_mentions: NO_PINGS,
        message_reference: { message_id: input.comment.externalId, fail_if_not_exists: true },
        nonce: await nonceOf(input.idempotencyKey, 0),
        enforce_nonce: true,
      },
    })
    const id = createdId(answer.body?.id, NETWORK, answer.body, 'reply')
    return { externalId: id, permalink: permalinkOf(guildOf(input), channel.channelId!, id) }
  } catch (err) {
    if (isGone(err)) throw new CommentGone(`${NETWORK}: the message replied to no longer exists.`)
    throw err
  }
}

export async function deleteComment(input: CommentActionInput): Promise<void> {
  const channel = botChannel(input)
  try {
    await call(channel, 'DELETE', channel.messageUrl(input.comment.externalId))
  } catch (err) {
    if (isGone(err)) throw new CommentGone(`${NETWORK}: the message no longer exists.`)
    throw err
  }
}

export async function likeComment(input: CommentActionInput): Promise<void> {
  const channel = botChannel(input)
  const emoji = encodeURIComponent(LIKE_EMOJI)
  try {
    await call(channel, 'PUT', `${channel.messageUrl(input.comment.externalId)}/reactions/${emoji}/@me`)
  } catch (err) {
    if (isGone(err)) throw new CommentGone(`${NETWORK}: the message no longer exists.`)
    throw err
  }
}
