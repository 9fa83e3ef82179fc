/**
 * WORKCHAT_NET (Slack Web API): a bot installed through OAuth v2 (DIRECT_LOGIN) or a custom app's
 * pasted bot token (BOT_TOKEN) posts into a channel chosen per target. docs/networks/workchat.md
 * says what is supported and which reference pages each step follows.
 */
import type { BoardsInput, Destination, NetworkAdapter } from '../../adapter'
import { asFailedResult, NetworkFailure } from '../../http'
import type { AdapterOptions } from '../options'
import { call, parsePostId, workchatOf, type Body } from './api'
import { botUserOf, readMessage, type Message } from './messages'
import { deleteComment, likeComment, listComments, listPosts, replyToComment } from './inbox'
import { workchatRefresh } from './oauth'
import { checkStatus, publish } from './publish'

/** Channel pages followed at most (200 channels each). */
export const MAX_CHANNEL_PAGES = 25

/**
 * The channels the bot can post to: public ones (it joins them when it first posts) and the
 * private ones it is a member of (the network lists no other private channel to a bot).
 */
async function listDestinations(input: BoardsInput): Promise<Destination[]> {
  const chat = workchatOf(input)
  const found: Destination[] = []
  let cursor = ''
  for (let page = 0; page < MAX_CHANNEL_PAGES; page++) {
    const body = await call(chat, 'conversations.list', {
      query: {
        types: 'public_channel,private_channel',
        exclude_archived: 'true',
        limit: '200',
        ...(cursor ? { cursor } : {}),
      },
    })
    for (const c of (body.channels ?? []) as Body[]) {
      if (c.is_private && !c.is_member) continue
      const purpose = typeof c.purpose?.value === 'string' && c.purpose.value ? c.purpose.value : null
      found.push({
        id: String(c.id),
        name: `#${String(c.name ?? c.id)}`,
        description: c.is_private ? `Private${purpose ? `: ${purpose}` : ''}` : purpose,
      })
    }
    cursor = typeof body.response_metadata?.next_cursor === 'string' ? body.response_metadata.next_cursor : ''
    if (!cursor) break
  }
  return found
}

/** Reactions summed, and thread replies, of a message still in the channel; null when it is gone. */
function metricsOf(message: Message | null): { likes: number | null; comments: number | null } {
  if (!message) return { likes: null, comments: null }
  const likes = (message.reactions ?? []).reduce((sum, r) => sum + (Number.isFinite(r.count) ? r.count : 0), 0)
  return { likes, comments: typeof message.reply_count === 'number' ? message.reply_count : 0 }
}

export function createWorkchatAdapter(options: AdapterOptions): NetworkAdapter {
  return {
    credentialRefresh: workchatRefresh(options.clients.WORKCHAT_NET),

    async verifyCredentials(input) {
      const me = await call(workchatOf(input), 'auth.test')
      if (typeof me.bot_id !== 'string' && input.connection === 'BOT_TOKEN')
        throw new NetworkFailure(
          'rejected',
          "WORKCHAT_NET: this is not a bot token (xoxb-): paste the app's Bot User OAuth Token.",
        )
      const team = String(me.team ?? me.team_id ?? '')
      return {
        username: `${String(me.user ?? me.user_id)} @ ${team}`,
        externalId: `${String(me.team_id)}:${String(me.user_id)}`,
        credentials: { ...input.credentials, botUserId: String(me.user_id), teamId: String(me.team_id) },
      }
    },

    listDestinations,
    listPosts,
    listComments,
    replyToComment,
    likeComment,
    deleteComment,

    async publish(input) {
      try {
        return await publish(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async checkStatus(input) {
      try {
        return await checkStatus(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async fetchInsights(input) {
      const chat = workchatOf(input)
      const posts = []
      for (const post of input.posts) {
        const { channel, ts } = parsePostId(post.platformPostId)
        const { likes, comments } = metricsOf(await readMessage(chat, channel, ts))
        posts.push({ targetId: post.targetId, likes, comments, shares: null, views: null, saves: null })
      }
      return { followers: null, posts }
    },

    /** The bot's replies in the thread first, then the head; a message already gone is what a delete wants. */
    async deletePost(input) {
      const chat = workchatOf(input)
      const { channel, ts } = parsePostId(input.platformPostId)
      const botUser = await botUserOf(chat, input.credentials)
      const thread = await call(chat, 'conversations.replies', { query: { channel, ts, limit: '200' } }).catch(
        (err: unknown) => {
          if (err instanceof NetworkFailure && /\((thread_not_found|message_not_found)\)$/.test(err.message))
            return { messages: [] }
          throw err
        },
      )
      const replies = ((thread.messages ?? []) as Message[]).filter((m) => m.ts !== ts && m.user === botUser)
      for (const m of [...replies, { ts }]) {
        try {
          await call(chat, 'chat.delete', { json: { channel, ts: m.ts } })
        } catch (err) {
          if (!(err instanceof NetworkFailure && err.message.endsWith('(message_not_found)'))) throw err
        }
      }
    },
  }
}
