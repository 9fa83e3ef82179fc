/**
 * CHAT_NET's two ways in and its error model. A WEBHOOK account talks to its webhook URL (the
 * registry's base URL; no auth header: the token is in the URL, so the URL never reaches a message).
 * A BOT_TOKEN account talks to `<CHAT_NET_API_URL>/api/v10` with `Authorization: Bot <token>`.
 * Errors are `{code, message, errors?}`; 429 adds `retry_after` (float seconds) and `global`.
 */
import {
  credential,
  failureOf,
  joinUrl,
  NetworkFailure,
  request,
  type NetworkAnswer,
  type RequestOptions,
} from '../../http'

export const NETWORK = 'CHAT_NET'
export const API_PATH = '/api/v10'
/** The upload limit per file without server boosts (reference: "Uploading Files"). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024
/** Mentions in our text are shown, never resolved into pings (@everyone, @here, roles, users). */
export const NO_PINGS = { parse: [] as string[], replied_user: false }
/** The reference requires every HTTP API client to name itself as `DiscordBot ($url, $versionNumber)`. */
export const USER_AGENT = 'DiscordBot (https://social-publishing-service.invalid, 1.0.0)'

/** JSON error codes that mean the account must be reconnected: the webhook or channel is gone. */
const RECONNECT_CODES: Record<number, string> = {
  10015: 'the webhook was deleted: reconnect the account with a new webhook URL',
  10003: 'the channel no longer exists: reconnect the account with a channel the bot can post in',
  50027: 'the webhook token is not valid: reconnect the account with the webhook URL as Discord shows it',
}
/** Codes refused for a reason the user can fix in the server's settings. */
const FIX_CODES: Record<number, string> = {
  50013: 'the bot lacks a permission in this channel: give it Send Messages, Attach Files and Read Message History',
  50001: 'the bot cannot see this channel: add it to the server and give it View Channel',
  40005: 'a file is larger than the server accepts (10 MiB without boosts)',
  10008: 'the message no longer exists',
  50006: 'the message is empty',
}

export interface Channel {
  kind: 'webhook' | 'bot'
  fetch: typeof fetch
  now: Date
  /** Where messages are sent (webhook URL with `wait=true`, or the channel's messages). */
  sendUrl: string
  /** Where one message lives, for delete. */
  messageUrl(id: string): string
  /** What says the guild: the webhook itself, or the channel. */
  infoUrl: string
  headers: Record<string, string>
  /** Bot only. */
  apiBase?: string
  channelId?: string
}

export function channelOf(input: {
  connection: string
  credentials: Record<string, unknown>
  baseUrl: string
  fetch: typeof fetch
  now: Date
}): Channel {
  if (input.connection === 'WEBHOOK') {
    const hook = new URL(credential(input.credentials, 'webhookUrl'))
    const send = new URL(hook)
    send.searchParams.set('wait', 'true')
    const message = (id: string) => {
      const u = new URL(hook)
      u.pathname = `${u.pathname.replace(/\/+$/, '')}/messages/${encodeURIComponent(id)}`
      return u.toString()
    }
    return {
      kind: 'webhook',
      fetch: input.fetch,
      now: input.now,
      sendUrl: send.toString(),
      messageUrl: message,
      infoUrl: hook.toString(),
      headers: { 'user-agent': USER_AGENT },
    }
  }
  if (input.connection !== 'BOT_TOKEN')
    throw new NetworkFailure('rejected', `${NETWORK} does not publish through ${input.connection}.`)
  const apiBase = joinUrl(input.baseUrl, API_PATH)
  const channelId = credential(input.credentials, 'channelId')
  const messages = joinUrl(apiBase, `/channels/${encodeURIComponent(channelId)}/messages`)
  return {
    kind: 'bot',
    fetch: input.fetch,
    now: input.now,
    sendUrl: messages,
    messageUrl: (id) => `${messages}/${encodeURIComponent(id)}`,
    infoUrl: joinUrl(apiBase, `/channels/${encodeURIComponent(channelId)}`),
    headers: { authorization: `Bot ${credential(input.credentials, 'botToken')}`, 'user-agent': USER_AGENT },
    apiBase,
    channelId,
  }
}

export function failureFrom(answer: NetworkAnswer, now: Date): NetworkFailure {
  const body = (answer.body ?? {}) as { code?: unknown; message?: unknown; retry_after?: unknown; global?: unknown }
  const code = typeof body.code === 'number' ? body.code : 0
  const words = typeof body.message === 'string' && body.message.trim() ? body.message.trim() : null
  if (answer.status === 429) {
    const fromBody =
      typeof body.retry_after === 'number' && body.retry_after >= 0
        ? Math.max(1, Math.ceil(body.retry_after))
        : undefined
    const failure = failureOf(
      answer,
      NETWORK,
      `${words ?? 'rate limited'}${body.global === true ? ' (global limit)' : ''}`,
      now,
    )
    return new NetworkFailure('rate_limited', failure.message, fromBody ?? failure.retryAfterSec ?? 1)
  }
  if (code in RECONNECT_CODES)
    return new NetworkFailure('auth_expired', `${NETWORK}: ${RECONNECT_CODES[code]}${words ? ` (${words})` : ''}`)
  if (answer.status === 401)
    return new NetworkFailure('auth_expired', `${NETWORK}: ${words ?? 'the token is no longer valid'}`)
  if (code === 50035 && JSON.stringify(body).includes('REPLIES_UNKNOWN_MESSAGE'))
    return new NetworkFailure('rejected', `${NETWORK}: ${FIX_CODES[10008]} (the message replied to)`)
  if (code in FIX_CODES)
    return new NetworkFailure('rejected', `${NETWORK}: ${FIX_CODES[code]}${words ? ` (${words})` : ''}`)
  return failureOf(answer, NETWORK, words, now)
}

/** One call; a non-2xx answer throws its failure. */
export async function call(
  channel: Channel,
  method: string,
  url: string,
  options: RequestOptions = {},
): Promise<NetworkAnswer> {
  const answer = await request(channel.fetch, NETWORK, url, {
    ...options,
    method,
    headers: { ...channel.headers, ...options.headers },
  })
  if (answer.status >= 200 && answer.status < 300) return answer
  throw failureFrom(answer, channel.now)
}

/** A message nonce (at most 25 characters) that is the same for the same target and part on every retry. */
export async function nonceOf(idempotencyKey: string, part: number): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${idempotencyKey}:${part}`)),
  )
  return [...digest]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 25)
}

export const permalinkOf = (guildId: string | null, channelId: string, messageId: string) =>
  `https://discord.com/channels/${guildId ?? '@me'}/${channelId}/${messageId}`
