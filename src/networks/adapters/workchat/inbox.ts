/**
 * WORKCHAT_NET's inbox (Slack Web API). Posts: the bot's own top-level messages in the channels it
 * is a member of (`users.conversations`, then each channel's `conversations.history` from `since`),
 * one channel after the other. Comments: a message's thread (`conversations.replies` with its `ts`),
 * flat as the network keeps threads, so every reply answers the post. A reply is `chat.postMessage`
 * with `thread_ts`; like is the bot's `thumbsup` (`reactions.add`); the bot may delete only its own
 * messages (`chat.delete`). Ids are `<channel>/<ts>`, as for posts. No hiding, no mentions listing.
 */
import type {
  CommentActionInput,
  CommentPage,
  ListCommentsInput,
  ListPostsInput,
  NetworkComment,
  NetworkPostPage,
  ReplyInput,
  SentReply,
} from '../../adapter'
import { NetworkFailure } from '../../http'
import { CommentGone } from '../../inbox-adapter'
import { call, escapeText, NETWORK, parsePostId, postIdOf, workchatOf, type Body, type Workchat } from './api'
import { botUserOf, permalinkOf, postMessage, type Message } from './messages'
import { NO_FIGURES } from '../../metrics'

/** Messages per page (the reference recommends no more than 200). */
export const PAGE_LIMIT = 200
/** The emoji a like adds (a name without colons). */
export const LIKE_EMOJI = 'thumbsup'
const GONE = /\((message_not_found|thread_not_found)\)$/

const gone = (err: unknown, what: string): unknown =>
  err instanceof NetworkFailure && GONE.test(err.message)
    ? new CommentGone(`${NETWORK}: ${what} no longer exists.`)
    : err

const secondsOf = (d: Date) => (d.getTime() / 1000).toFixed(6)
const dateOf = (ts: string) => new Date(Math.round(Number(ts) * 1000))
const nextOf = (body: Body): string =>
  typeof body.response_metadata?.next_cursor === 'string' ? body.response_metadata.next_cursor : ''

interface PostsCursor {
  channels: string[]
  cursor: string
}

async function memberChannels(chat: Workchat): Promise<string[]> {
  const ids: string[] = []
  let cursor = ''
  do {
    const body = await call(chat, 'users.conversations', {
      query: {
        types: 'public_channel,private_channel',
        exclude_archived: 'true',
        limit: '200',
        ...(cursor ? { cursor } : {}),
      },
    })
    for (const c of (body.channels ?? []) as Body[]) if (typeof c.id === 'string') ids.push(c.id)
    cursor = nextOf(body)
  } while (cursor)
  return ids
}

/** One page of one channel's history; the cursor names the channels left and where this one stopped. */
export async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const chat = workchatOf(input)
  const at: PostsCursor = input.cursor
    ? (JSON.parse(input.cursor) as PostsCursor)
    : { channels: await memberChannels(chat), cursor: '' }
  const channel = at.channels[0]
  if (!channel) return { posts: [], nextCursor: null }
  const me = await botUserOf(chat, input.credentials)
  const body = await call(chat, 'conversations.history', {
    query: {
      channel,
      oldest: secondsOf(input.since),
      limit: String(PAGE_LIMIT),
      ...(at.cursor ? { cursor: at.cursor } : {}),
    },
  })
  const mine = ((body.messages ?? []) as Message[]).filter((m) => m.user === me)
  const posts = []
  for (const m of mine) {
    const likes = (m.reactions ?? []).reduce((sum, r) => sum + (Number(r.count) || 0), 0)
    posts.push({
      platformPostId: postIdOf(channel, m.ts),
      permalink: await permalinkOf(chat, channel, m.ts),
      text: m.text ?? '',
      publishedAt: dateOf(m.ts),
      mediaUrls: [],
      metrics: { ...NO_FIGURES, likes, comments: m.reply_count ?? 0 },
    })
  }
  const cursor = body.has_more === true ? nextOf(body) : ''
  const left: PostsCursor = cursor ? { channels: at.channels, cursor } : { channels: at.channels.slice(1), cursor: '' }
  return { posts, nextCursor: left.channels.length ? JSON.stringify(left) : null }
}

/** The thread of one message: its replies oldest first (the head itself left out). */
export async function listComments(input: ListCommentsInput): Promise<CommentPage> {
  const chat = workchatOf(input)
  const { channel, ts } = parsePostId(input.post.platformPostId)
  const me = await botUserOf(chat, input.credentials)
  let body: Body
  try {
    body = await call(chat, 'conversations.replies', {
      query: {
        channel,
        ts,
        limit: String(PAGE_LIMIT),
        ...(input.since ? { oldest: secondsOf(input.since) } : {}),
        ...(input.cursor ? { cursor: input.cursor } : {}),
      },
    })
  } catch (err) {
    throw gone(err, 'the message')
  }
  const comments: NetworkComment[] = []
  for (const m of (body.messages ?? []) as Message[]) {
    if (m.ts === ts || (input.since && dateOf(m.ts) <= input.since)) continue
    comments.push({
      externalId: postIdOf(channel, m.ts),
      parentExternalId: null,
      postExternalId: input.post.platformPostId,
      author: { externalId: m.user ?? null, name: m.user ?? 'unknown', handle: null, avatarUrl: null },
      text: m.text ?? '',
      createdAt: dateOf(m.ts),
      permalink: null,
      fromAccount: m.user === me,
      hidden: null,
    })
  }
  const cursor = body.has_more === true ? nextOf(body) : ''
  return { comments, nextCursor: cursor || null }
}

/** A reply in the post's thread (the network's threads are one level deep). */
export async function replyToComment(input: ReplyInput): Promise<SentReply> {
  const chat = workchatOf(input)
  const head = parsePostId(input.comment.postExternalId ?? input.comment.externalId)
  try {
    const ts = await postMessage(chat, { channel: head.channel, thread_ts: head.ts, text: escapeText(input.text) })
    const permalink = await permalinkOf(chat, head.channel, ts).catch(() => null)
    return { externalId: postIdOf(head.channel, ts), permalink }
  } catch (err) {
    throw gone(err, 'the thread')
  }
}

export async function likeComment(input: CommentActionInput): Promise<void> {
  const { channel, ts } = parsePostId(input.comment.externalId)
  try {
    await call(workchatOf(input), 'reactions.add', { json: { channel, name: LIKE_EMOJI, timestamp: ts } })
  } catch (err) {
    if (err instanceof NetworkFailure && err.message.endsWith('already_reacted')) return
    throw gone(err, 'the message')
  }
}

/** Only the bot's own messages: the network answers `cant_delete_message` for anyone else's. */
export async function deleteComment(input: CommentActionInput): Promise<void> {
  const { channel, ts } = parsePostId(input.comment.externalId)
  try {
    await call(workchatOf(input), 'chat.delete', { json: { channel, ts } })
  } catch (err) {
    throw gone(err, 'the message')
  }
}
