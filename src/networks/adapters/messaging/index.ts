/**
 * The messaging app (Telegram Bot API) posting into one chat or channel with a bot token.
 * Text goes out without `parse_mode`, so it is shown exactly as written (nothing is read as
 * markup). Media bytes are uploaded by multipart: our storage URL need not be reachable by the
 * network. One item: sendPhoto / sendVideo with the caption; 2–10: sendMediaGroup, the caption on
 * the first item. Thread parts reply to the previous message. The Bot API has no idempotency key
 * and no way to read a chat's messages back, so a send whose answer was lost is never repeated
 * blindly: the user is told to check the chat.
 */
import type { NetworkAdapter, PublishInput, PublishResult } from '../../adapter'
import { asFailedResult, credential, downloadMedia, MEDIA_TIMEOUT_MS, NetworkFailure } from '../../http'
import { metric } from '../../metrics'
import { bot, NETWORK, permalinkOf, type Bot } from './api'
import type { AdapterOptions } from '../options'

/** A chat member status that may post, by chat type (channels need an administrator). */
const CAN_POST: Record<string, (member: any) => boolean> = {
  channel: (m) => m.status === 'creator' || (m.status === 'administrator' && m.can_post_messages !== false),
  // ChatMemberRestricted always carries is_member and can_send_messages.
  default: (m) =>
    ['creator', 'administrator', 'member'].includes(m.status) ||
    (m.status === 'restricted' && m.is_member === true && m.can_send_messages === true),
}

/**
 * The Bot API answers `message_id: 0` when the network scheduled the message instead of sending it
 * at once (e.g. a video to a big chat): it goes out later, but that id can never be used.
 */
const SCHEDULED = '0'
const SCHEDULED_WARNING = `${NETWORK} queued the message to go out shortly and did not give its id: it has no link yet, later thread parts follow it without replying to it, and it cannot be deleted from here.`

/** What was being sent when an attempt ended without an answer: -1 the head, else the part's index. */
interface Sending {
  step: number
  at: string
}

const attach = (i: number) => `file${i}`

async function sendHead(input: PublishInput, b: Bot, chatId: string): Promise<string[]> {
  const { text, media } = input.content
  if (media.length === 0) {
    const message = await b.call('sendMessage', { chat_id: chatId, text })
    return [String(message.message_id)]
  }
  const form = new FormData()
  form.set('chat_id', chatId)
  for (const [i, m] of media.entries()) {
    const bytes = await downloadMedia(input.fetch, m)
    form.set(attach(i), new Blob([bytes.slice()], { type: m.mimeType }), `${m.id}.${m.mimeType.split('/')[1] ?? 'bin'}`)
  }
  if (media.length === 1) {
    const kind = media[0]!.type === 'VIDEO' ? 'video' : 'photo'
    form.set(kind, form.get(attach(0))!)
    form.delete(attach(0))
    if (text) form.set('caption', text)
    if (kind === 'video') form.set('supports_streaming', 'true')
    const message = await b.call(kind === 'video' ? 'sendVideo' : 'sendPhoto', form, { timeoutMs: MEDIA_TIMEOUT_MS })
    return [String(message.message_id)]
  }
  const items = media.map((m, i) => ({
    type: m.type === 'VIDEO' ? 'video' : 'photo',
    media: `attach://${attach(i)}`,
    ...(i === 0 && text ? { caption: text } : {}),
  }))
  form.set('media', JSON.stringify(items))
  const messages = await b.call('sendMediaGroup', form, { timeoutMs: MEDIA_TIMEOUT_MS })
  return (Array.isArray(messages) ? messages : []).map((m: any) => String(m.message_id))
}

/** Sends a step unless an earlier attempt at it ended without an answer (then the user decides). */
async function guarded<T>(input: PublishInput, step: number, send: () => Promise<T>): Promise<T> {
  const marker = input.progress.sending as Sending | null | undefined
  if (marker && marker.step === step) {
    await input.saveProgress({ sending: null })
    const what = step < 0 ? 'the post' : `thread part ${step + 1}`
    throw new NetworkFailure(
      'unconfirmed',
      `${NETWORK} did not answer while ${what} was being sent, and the Bot API cannot tell whether it arrived: check the chat, and use retry only if it is not there.`,
    )
  }
  await input.saveProgress({ sending: { step, at: input.now.toISOString() } satisfies Sending })
  try {
    return await send()
  } catch (err) {
    // A refusal (4xx, 429) means nothing was sent; a lost or unreadable answer or a 5xx leaves the doubt.
    if (err instanceof NetworkFailure && err.kind !== 'transient' && err.kind !== 'unconfirmed')
      await input.saveProgress({ sending: null })
    throw err
  }
}

async function run(input: PublishInput): Promise<PublishResult> {
  const b = bot(input, credential(input.credentials, 'botToken'))
  const chatId = credential(input.credentials, 'chatId')
  let headId = input.progress.headId
  if (!headId) {
    const ids = await guarded(input, -1, () => sendHead(input, b, chatId))
    if (ids[0] === undefined || !/^\d+$/.test(ids[0]))
      throw new NetworkFailure('transient', `${NETWORK} answered without a message id.`)
    headId = ids[0]
    await input.saveProgress({
      headId,
      headPermalink: permalinkOf(input.credentials, headId),
      messageIds: ids,
      sending: null,
    })
  }
  const partIds = [...(input.progress.partIds ?? [])]
  for (let i = partIds.length; i < input.content.threadParts.length; i++) {
    const replyTo = partIds[i - 1] ?? headId
    const reply = replyTo === SCHEDULED ? {} : { reply_parameters: { message_id: Number(replyTo) } }
    const message = await guarded(input, i, () =>
      b.call('sendMessage', { chat_id: chatId, text: input.content.threadParts[i]!, ...reply }),
    )
    partIds.push(String(message.message_id))
    await input.saveProgress({ partIds: [...partIds], sending: null })
  }
  const scheduled = [headId, ...partIds].includes(SCHEDULED)
  return {
    status: 'published',
    platformPostId: headId,
    permalink: permalinkOf(input.credentials, headId),
    ...(scheduled ? { warnings: [SCHEDULED_WARNING] } : {}),
  }
}

export function createMessagingAdapter(_options: AdapterOptions): NetworkAdapter {
  return {
    async publish(input) {
      try {
        return await run(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async checkStatus(input) {
      const { headId } = input.progress
      const sending = input.progress.sending as Sending | null | undefined
      if (input.unconfirmed) {
        // Nothing was on its way: surely absent. A send in flight cannot be looked up through the Bot API.
        if (!headId && !sending) return { status: 'absent' }
        if (sending)
          return {
            status: 'failed',
            kind: 'transient',
            message: `${NETWORK} cannot tell whether the message went out.`,
          }
      }
      try {
        return await run(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async verifyCredentials(input) {
      const b = bot(input, credential(input.credentials, 'botToken'))
      const me = await b.call('getMe', {})
      const chat = await b.call('getChat', { chat_id: credential(input.credentials, 'chatId') })
      const member = await b.call('getChatMember', { chat_id: chat.id, user_id: me.id })
      const canPost = (CAN_POST[chat.type] ?? CAN_POST.default!)(member)
      if (!canPost) {
        const need =
          chat.type === 'channel'
            ? 'an administrator of the channel allowed to post messages'
            : 'a member of the chat allowed to send messages'
        throw new NetworkFailure(
          'rejected',
          `${NETWORK}: the bot @${me.username} is not ${need}: add it, then connect again.`,
        )
      }
      const chatUsername = typeof chat.username === 'string' && chat.username ? chat.username : null
      return {
        username: chatUsername ?? String(chat.title ?? chat.id),
        externalId: String(chat.id),
        credentials: { ...input.credentials, chatId: String(chat.id), ...(chatUsername ? { chatUsername } : {}) },
      }
    },

    async fetchInsights(input) {
      const b = bot(input, credential(input.credentials, 'botToken'))
      const count = await b.call('getChatMemberCount', { chat_id: credential(input.credentials, 'chatId') })
      return {
        followers: metric(count),
        posts: input.posts.map((p) => ({
          targetId: p.targetId,
          likes: null,
          comments: null,
          shares: null,
          views: null,
          saves: null,
        })),
      }
    },

    async deletePost(input) {
      if (input.platformPostId === SCHEDULED)
        throw new NetworkFailure(
          'rejected',
          `${NETWORK} never gave this message's id (it was queued to go out later): delete it in the chat.`,
        )
      const b = bot(input, credential(input.credentials, 'botToken'))
      try {
        await b.call('deleteMessage', {
          chat_id: credential(input.credentials, 'chatId'),
          message_id: Number(input.platformPostId),
        })
      } catch (err) {
        // Already gone (deleted in the chat) is what a delete wants.
        if (!(err instanceof NetworkFailure) || !/message to delete not found/i.test(err.message)) throw err
      }
    },
  }
}
