/**
 * The messaging app's Bot API conventions: `{base}/bot<token>/<method>`, `{ok, result}` answers,
 * `{ok:false, error_code, description, parameters}` failures, and where a message can be seen.
 * The token is in the URL, so no URL and no answer text beyond `description` ever reaches a message.
 */
import { joinUrl, NetworkFailure, request, retryAfterSec, type RequestOptions } from '../../http'

export const NETWORK = 'MESSAGING_NET'

/** What to do, by the Bot API's error code, after the network's own description. */
const ADVICE: Record<number, string> = {
  403: 'add the bot to the chat (as an administrator allowed to post, for a channel), then retry',
}

/**
 * The Bot API's failure as a `NetworkFailure`. On a 429 the wait is `parameters.retry_after`, else
 * the `Retry-After` header (a 429 from something in front of the Bot API has no Bot API body).
 */
export function failureOfBot(status: number, body: any, answer?: { headers: Headers; now: Date }): NetworkFailure {
  const code = Number(body?.error_code ?? status)
  const description = typeof body?.description === 'string' && body.description ? body.description : `HTTP ${status}`
  const params = body?.parameters ?? {}
  if (params.migrate_to_chat_id !== undefined) {
    return new NetworkFailure(
      'rejected',
      `${NETWORK}: the group became a supergroup with the chat id ${params.migrate_to_chat_id}: reconnect the account with that chatId.`,
    )
  }
  if (code === 429) {
    const waitSec = Number(params.retry_after) || (answer ? retryAfterSec(answer.headers, answer.now) : undefined)
    return new NetworkFailure('rate_limited', `${NETWORK}: ${description}`, waitSec || undefined)
  }
  if (code === 401 || code === 404)
    return new NetworkFailure(
      'auth_expired',
      `${NETWORK}: ${description} (the bot token was refused: revoked or replaced in @BotFather?)`,
    )
  if (status >= 500 || code >= 500) return new NetworkFailure('transient', `${NETWORK}: ${description}`)
  const advice = ADVICE[code]
  // Advice ends in "then retry": once the user has done it, a retry by hand gets through.
  const message = `${NETWORK}: ${description}${advice ? `: ${advice}.` : ''}`
  return new NetworkFailure('rejected', message, undefined, advice ? true : undefined)
}

export interface Bot {
  /** The method's `result`; throws the classified failure when `ok` is false. */
  call(
    method: string,
    params: Record<string, unknown> | FormData,
    options?: Pick<RequestOptions, 'timeoutMs'>,
  ): Promise<any>
}

/** The network's calls with one bot token; `input.now` reads a `Retry-After` date. */
export function bot(input: { fetch: typeof fetch; baseUrl: string; now: Date }, token: string): Bot {
  return {
    async call(method, params, options = {}) {
      const url = joinUrl(input.baseUrl, `bot${token}/${method}`)
      const answer = await request(
        input.fetch,
        NETWORK,
        url,
        params instanceof FormData ? { body: params, ...options } : { json: params, ...options },
      )
      if (answer.body?.ok === true) return answer.body.result
      throw failureOfBot(answer.status, answer.body, { headers: answer.headers, now: input.now })
    },
  }
}

/**
 * https://t.me/<username>/<id> for a public chat, else t.me/c/<internal id>/<id> (members only).
 * Message id 0 (queued by the network, id unknown) links the chat itself.
 */
export function permalinkOf(credentials: Record<string, unknown>, messageId: string): string {
  const username =
    typeof credentials.chatUsername === 'string' && credentials.chatUsername ? credentials.chatUsername : null
  const chatId = String(credentials.chatId ?? '')
  const tail = messageId === '0' ? '' : `/${messageId}`
  if (username) return `https://t.me/${username}${tail}`
  if (chatId.startsWith('@')) return `https://t.me/${chatId.slice(1)}${tail}`
  return `https://t.me/c/${chatId.replace(/^-100/, '').replace(/^-/, '')}${tail}`
}
