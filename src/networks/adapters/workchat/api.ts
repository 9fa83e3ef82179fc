/**
 * WORKCHAT_NET's Web API as the adapter speaks it (Slack): every method is `POST` (writes, JSON
 * or form) or `GET` (reads, query) on `<WORKCHAT_NET_API_URL>/api/<method>` with the bot token as
 * `Authorization: Bearer`. The answer is HTTP 200 with `{ ok: true, ... }` or `{ ok: false, error }`;
 * a 429 carries `Retry-After` in seconds. The `error` codes are classified by the table below.
 */
import type { FailureKind } from '../../adapter'
import {
  credential,
  failureOf,
  joinUrl,
  NetworkFailure,
  request,
  UnconfirmedAnswer,
  type NetworkAnswer,
} from '../../http'

export const NETWORK = 'WORKCHAT_NET'
/** The wait after a 429 that names none (the reference always sends `Retry-After`). */
export const DEFAULT_RATE_LIMIT_WAIT_SEC = 30

/**
 * `ok: false` codes: how each is classified and what the user is told. `fatal_error` and
 * `internal_error` say "some aspect of the operation may have succeeded": after a write they are
 * `unconfirmed` (the engine looks the message up before anything else), after a read transient.
 */
export const ERROR_CODES: Record<string, { kind: FailureKind | 'unknown_outcome'; words: string }> = {
  channel_not_found: {
    kind: 'rejected',
    words: 'the channel does not exist or the app cannot see it: choose another channel',
  },
  not_in_channel: {
    kind: 'rejected',
    words: 'the app is not a member of this channel: invite it (/invite @app) to a private channel first',
  },
  is_archived: { kind: 'rejected', words: 'the channel is archived: choose another channel' },
  msg_too_long: { kind: 'rejected', words: 'the message text is too long' },
  msg_blocks_too_long: { kind: 'rejected', words: 'the message blocks are too long: shorten the caption' },
  no_text: { kind: 'rejected', words: 'the message is empty' },
  invalid_blocks: {
    kind: 'rejected',
    words: 'the network refused the message layout (an image URL it could not read?)',
  },
  too_many_attachments: { kind: 'rejected', words: 'the message carries too many attachments' },
  restricted_action: {
    kind: 'rejected',
    words: 'a workspace setting keeps the app from posting in this channel',
  },
  ekm_access_denied: { kind: 'rejected', words: 'the workspace administrators suspended posting' },
  message_not_found: { kind: 'rejected', words: 'the message no longer exists' },
  thread_not_found: { kind: 'rejected', words: 'the thread no longer exists' },
  cant_delete_message: { kind: 'rejected', words: 'the app may not delete this message' },
  file_not_found: { kind: 'rejected', words: 'the uploaded file was not found: it is uploaded again' },
  file_upload_size_restricted: { kind: 'rejected', words: 'the file is larger than the workspace allows' },
  missing_scope: { kind: 'auth_expired', words: 'the app lacks a permission it needs: reconnect the account' },
  not_authed: { kind: 'auth_expired', words: 'no token was sent: reconnect the account' },
  invalid_auth: { kind: 'auth_expired', words: 'the token is not valid: reconnect the account' },
  token_revoked: { kind: 'auth_expired', words: 'the token was revoked: reconnect the account' },
  token_expired: { kind: 'auth_expired', words: 'the token expired' },
  account_inactive: { kind: 'auth_expired', words: 'the app was removed from the workspace: reconnect the account' },
  invalid_refresh_token: { kind: 'auth_expired', words: 'the refresh token is no longer valid: reconnect the account' },
  ratelimited: { kind: 'rate_limited', words: 'rate limited' },
  rate_limited: { kind: 'rate_limited', words: 'rate limited' },
  service_unavailable: { kind: 'transient', words: 'the service is unavailable' },
  request_timeout: { kind: 'transient', words: 'the request timed out' },
  fatal_error: { kind: 'unknown_outcome', words: 'the network failed while acting' },
  internal_error: { kind: 'unknown_outcome', words: 'the network failed while acting' },
}

export interface Workchat {
  fetch: typeof fetch
  baseUrl: string
  now: Date
  token: string
}

export type Body = Record<string, any>

/** The token of either connection: an OAuth install's `accessToken`, or a pasted `botToken`. */
export function workchatOf(input: {
  connection: string
  credentials: Record<string, unknown>
  fetch: typeof fetch
  baseUrl: string
  now: Date
}): Workchat {
  const field = input.connection === 'BOT_TOKEN' ? 'botToken' : 'accessToken'
  return { fetch: input.fetch, baseUrl: input.baseUrl, now: input.now, token: credential(input.credentials, field) }
}

/** The failure an answer stands for: its HTTP status first (429, 5xx), then its `error` code. */
export function failureFrom(answer: NetworkAnswer, now: Date, write: boolean): NetworkFailure {
  const body = answer.body && typeof answer.body === 'object' ? (answer.body as Body) : {}
  const code = typeof body.error === 'string' ? body.error : null
  if (answer.status === 429 || code === 'ratelimited') {
    const failure = failureOf({ ...answer, status: 429, body }, NETWORK, 'rate limited', now)
    return new NetworkFailure('rate_limited', failure.message, failure.retryAfterSec ?? DEFAULT_RATE_LIMIT_WAIT_SEC)
  }
  if (answer.status !== 200 || code === null) return failureOf(answer, NETWORK, code, now)
  const known = ERROR_CODES[code]
  if (!known) return new NetworkFailure('rejected', `${NETWORK}: ${code}`)
  const message = `${NETWORK}: ${known.words} (${code})`
  if (known.kind === 'unknown_outcome')
    return write
      ? new UnconfirmedAnswer(`${message}, so whether it acted is unknown.`)
      : new NetworkFailure('transient', message)
  return new NetworkFailure(known.kind, message)
}

/** One Web API method; `ok: false` or a non-200 answer throws its failure. */
export async function call(
  chat: Workchat,
  method: string,
  options: { json?: unknown; form?: Record<string, string>; query?: Record<string, string> } = {},
): Promise<Body> {
  const write = options.json !== undefined || options.form !== undefined
  const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : ''
  const answer = await request(chat.fetch, NETWORK, joinUrl(chat.baseUrl, `/api/${method}`) + query, {
    method: write ? 'POST' : 'GET',
    headers: {
      authorization: `Bearer ${chat.token}`,
      ...(options.json !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}),
    },
    ...(options.json !== undefined ? { json: options.json } : {}),
    ...(options.form !== undefined ? { form: options.form } : {}),
  })
  const body = answer.status === 200 ? (answer.body as Body | null) : null
  if (body?.ok === true) return body
  throw failureFrom(answer, chat.now, write)
}

/**
 * Text as the network shows it literally: `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`, so
 * nothing in a caption is read as a mention (`<!channel>`, `<@U123>`) or a link; nothing else is
 * encoded (the reference asks for exactly these three).
 */
export const escapeText = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')

/** A message id we hand out: the channel and the message's `ts` (the network needs both). */
export const postIdOf = (channelId: string, ts: string) => `${channelId}/${ts}`
export function parsePostId(id: string): { channel: string; ts: string } {
  const [channel, ts] = id.split('/')
  if (!channel || !ts) throw new NetworkFailure('rejected', `${NETWORK}: ${id} is not a message id of this network.`)
  return { channel, ts }
}
