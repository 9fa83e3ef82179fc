/** The federated network's (Mastodon API) calls: bearer token, the instance's `error` words on a failure. */
import type { PublishInput } from '../../adapter'
import { failureOf, joinUrl, request, type RequestOptions } from '../../http'

export const NETWORK = 'FEDERATED_NET'

/** One API call; a non-2xx answer becomes a failure carrying the instance's `error` words. */
export async function api(
  ctx: { input: Pick<PublishInput, 'fetch' | 'baseUrl' | 'now'>; token: string },
  path: string,
  options: RequestOptions = {},
) {
  const answer = await request(ctx.input.fetch, NETWORK, joinUrl(ctx.input.baseUrl, path), {
    ...options,
    headers: { authorization: `Bearer ${ctx.token}`, ...options.headers },
  })
  if (answer.status >= 200 && answer.status < 300) return answer
  const words = typeof answer.body?.error === 'string' ? answer.body.error : null
  throw failureOf(
    answer,
    NETWORK,
    words ?? (answer.status === 401 ? 'the access token was refused' : null),
    ctx.input.now,
  )
}
