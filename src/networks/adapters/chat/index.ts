/**
 * CHAT_NET: a message to a channel, through a webhook or a bot, text exactly as written (mentions
 * never ping anyone: `allowed_mentions: {parse: []}`), files as multipart `files[n]` with alt text
 * as the attachment's description. Thread parts: through a bot each part replies to the previous
 * message (`message_reference`); a webhook cannot reply, so its parts follow as separate messages.
 *
 * Retries: a bot message carries a nonce derived from the target and part with `enforce_nonce`, so
 * the network returns the message it already made instead of a second one (for a few minutes). An
 * unconfirmed bot publish is looked up among the channel's recent messages; a webhook cannot look
 * messages up, so an unconfirmed webhook publish is left for the user to check.
 */
import type { NetworkAdapter, PendingInput, PublishInput, PublishMedia, PublishResult } from '../../adapter'
import { asFailedResult, downloadMedia, MEDIA_TIMEOUT_MS, NetworkFailure } from '../../http'
import { call, channelOf, MAX_FILE_BYTES, NETWORK, NO_PINGS, nonceOf, permalinkOf, type Channel } from './api'
import type { AdapterOptions } from '../options'
import { deleteComment, likeComment, listComments, listPosts, replyToComment } from './inbox'

/** Messages read back when confirming a lost bot publish, and how far back they must reach to say "absent". */
const LOOKUP = { limit: 50, coverSec: 3600 }
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
}

interface Sent {
  id: string
  channel_id?: string
}

const filenameOf = (m: PublishMedia) =>
  `${m.id}.${EXTENSIONS[m.mimeType] ?? m.mimeType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') ?? 'bin'}`

/** Refuses files over the per-file limit before anything is sent. */
function checkSizes(media: PublishMedia[]): void {
  const big = media.find((m) => m.sizeBytes > MAX_FILE_BYTES)
  if (big) {
    const mib = (big.sizeBytes / 1024 / 1024).toFixed(1)
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: file ${big.id} is ${mib} MiB; the channel accepts files up to 10 MiB (more only on boosted servers): use a smaller file.`,
    )
  }
}

async function send(
  channel: Channel,
  text: string,
  media: PublishMedia[],
  extra: Record<string, unknown>,
): Promise<Sent> {
  const payload = { content: text, allowed_mentions: NO_PINGS, ...extra }
  let answer
  if (media.length === 0) {
    answer = await call(channel, 'POST', channel.sendUrl, { json: payload })
  } else {
    const form = new FormData()
    form.append(
      'payload_json',
      JSON.stringify({
        ...payload,
        attachments: media.map((m, i) => ({
          id: i,
          filename: filenameOf(m),
          ...(m.altText ? { description: m.altText } : {}),
        })),
      }),
    )
    for (const [i, m] of media.entries()) {
      const bytes = await downloadMedia(channel.fetch, m)
      form.append(`files[${i}]`, new Blob([bytes as BlobPart], { type: m.mimeType }), filenameOf(m))
    }
    answer = await call(channel, 'POST', channel.sendUrl, { body: form, timeoutMs: MEDIA_TIMEOUT_MS })
  }
  const id = answer.body?.id
  if (typeof id !== 'string') throw new NetworkFailure('transient', `${NETWORK} did not return the message it created.`)
  return { id, channel_id: typeof answer.body.channel_id === 'string' ? answer.body.channel_id : undefined }
}

/** The guild and channel for permalinks: saved at connection time, else asked once and kept in progress. */
async function placeOf(channel: Channel, input: PublishInput): Promise<{ guildId: string | null; channelId: string }> {
  const saved = (input.progress.place ?? null) as { guildId: string | null; channelId: string } | null
  if (saved) return saved
  const fromCredentials = input.credentials.guildId
  const channelId = (input.credentials.channelId as string | undefined) ?? undefined
  if (typeof fromCredentials === 'string' && channelId) return { guildId: fromCredentials, channelId }
  const info = (await call(channel, 'GET', channel.infoUrl)).body ?? {}
  const place = {
    guildId: typeof info.guild_id === 'string' ? info.guild_id : null,
    channelId: String(channel.kind === 'bot' ? info.id : info.channel_id),
  }
  await input.saveProgress({ place })
  return place
}

async function publish(input: PublishInput): Promise<PublishResult> {
  try {
    const channel = channelOf(input)
    checkSizes(input.content.media)
    const place = await placeOf(channel, input)
    const bot = channel.kind === 'bot'
    let headId = input.progress.headId
    if (!headId) {
      const extra = bot ? { nonce: await nonceOf(input.idempotencyKey, 0), enforce_nonce: true } : {}
      headId = (await send(channel, input.content.text, input.content.media, extra)).id
      await input.saveProgress({ headId, headPermalink: permalinkOf(place.guildId, place.channelId, headId) })
    }
    const partIds = [...(input.progress.partIds ?? [])]
    for (let i = partIds.length; i < input.content.threadParts.length; i++) {
      const previous = partIds[i - 1] ?? headId
      const extra = bot
        ? {
            nonce: await nonceOf(input.idempotencyKey, i + 1),
            enforce_nonce: true,
            message_reference: { message_id: previous },
          }
        : {}
      partIds.push((await send(channel, input.content.threadParts[i]!, [], extra)).id)
      await input.saveProgress({ partIds: [...partIds] })
    }
    return {
      status: 'published',
      platformPostId: headId,
      permalink: permalinkOf(place.guildId, place.channelId, headId),
    }
  } catch (err) {
    return asFailedResult(err)
  }
}

/** The bot's own message with our text among the channel's recent ones; null when surely absent. */
async function findBotMessage(channel: Channel, input: PendingInput): Promise<string | null> {
  const me = (await call(channel, 'GET', `${channel.apiBase}/users/@me`)).body ?? {}
  const answer = await call(channel, 'GET', `${channel.sendUrl}?limit=${LOOKUP.limit}`)
  const messages: Array<{
    id: string
    content?: string
    nonce?: unknown
    author?: { id?: string }
    timestamp?: string
  }> = Array.isArray(answer.body) ? answer.body : []
  const nonce = await nonceOf(input.idempotencyKey, 0)
  const found = messages.find((m) => m.nonce === nonce || (m.author?.id === me.id && m.content === input.content.text))
  if (found) return found.id
  const oldest = messages.at(-1)?.timestamp
  const covered =
    messages.length < LOOKUP.limit ||
    (oldest !== undefined && Date.parse(oldest) <= input.now.getTime() - LOOKUP.coverSec * 1000)
  if (!covered)
    throw new NetworkFailure('transient', `${NETWORK}: the channel is too busy to tell whether the message went out.`)
  return null
}

async function checkStatus(input: PendingInput): Promise<PublishResult> {
  if (!input.unconfirmed) return publish(input)
  try {
    const channel = channelOf(input)
    const partsDone = (input.progress.partIds?.length ?? 0) >= input.content.threadParts.length
    if (channel.kind === 'webhook') {
      // A webhook can only read a message whose id it knows: anything still in flight is unknowable.
      if (input.progress.headId && partsDone) return publish(input)
      throw new NetworkFailure(
        'transient',
        `${NETWORK}: a webhook cannot look up its messages, so whether the last one went out is unknown.`,
      )
    }
    if (!input.progress.headId) {
      const found = await findBotMessage(channel, input)
      if (!found) return { status: 'absent' }
      await input.saveProgress({ headId: found })
    }
    // Remaining parts carry their nonces: a part that did go out is returned, not sent again.
    return publish(input)
  } catch (err) {
    return asFailedResult(err)
  }
}

export function createChatAdapter(_options: AdapterOptions): NetworkAdapter {
  return {
    publish,
    checkStatus,
    listPosts,
    listComments,
    replyToComment,
    deleteComment,
    likeComment,
    async verifyCredentials(input) {
      const channel = channelOf(input)
      if (channel.kind === 'webhook') {
        const hook = (await call(channel, 'GET', channel.infoUrl)).body ?? {}
        const credentials = {
          ...input.credentials,
          channelId: String(hook.channel_id ?? ''),
          ...(typeof hook.guild_id === 'string' ? { guildId: hook.guild_id } : {}),
        }
        return {
          username: typeof hook.name === 'string' && hook.name ? hook.name : String(hook.id),
          externalId: String(hook.id),
          credentials,
        }
      }
      await call(channel, 'GET', `${channel.apiBase}/users/@me`)
      const info = (await call(channel, 'GET', channel.infoUrl)).body ?? {}
      const credentials = {
        ...input.credentials,
        ...(typeof info.guild_id === 'string' ? { guildId: info.guild_id } : {}),
      }
      return {
        username: typeof info.name === 'string' && info.name ? info.name : String(info.id),
        externalId: String(info.id ?? channel.channelId),
        credentials,
      }
    },
    async deletePost(input) {
      const channel = channelOf(input)
      try {
        await call(channel, 'DELETE', channel.messageUrl(input.platformPostId))
      } catch (err) {
        // Already gone is what a delete wants.
        if (!(err instanceof NetworkFailure && /the message no longer exists/.test(err.message))) throw err
      }
    },
  }
}
