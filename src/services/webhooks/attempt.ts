/**
 * One HTTP attempt of a webhook delivery: the signed POST through the outbound guard
 * (networks/outbound.ts: public addresses only unless ALLOW_PRIVATE_URLS), no redirect followed,
 * a time limit over the whole exchange, and what came back: status, duration, the first KiB of
 * the answer, or the class of the failure.
 */
import type { Deps } from '../../deps'
import type { WebhookErrorClass } from '../../domain/webhooks/events'
import { parseRetryAfter, type WebhookPolicy } from '../../domain/webhooks/policy'
import { OutboundRefused } from '../../networks/outbound'

export const RESPONSE_BODY_BYTES = 1024

export interface AttemptResult {
  ok: boolean
  statusCode: number | null
  durationMs: number
  responseBody: string | null
  errorClass: WebhookErrorClass | null
  /** The receiver's `Retry-After` on 429 and 503. */
  retryAfterMs: number | null
}

/** The first `limit` bytes of the body as text; the rest is not read. */
async function readHead(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let length = 0
  try {
    while (length < limit) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      length += value.byteLength
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
  const all = new Uint8Array(Math.min(length, limit))
  let offset = 0
  for (const c of chunks) {
    const part = c.subarray(0, all.length - offset)
    all.set(part, offset)
    offset += part.byteLength
    if (offset >= all.length) break
  }
  return new TextDecoder().decode(all)
}

function classify(err: unknown): WebhookErrorClass {
  if (err instanceof OutboundRefused) return /redirect/i.test(err.message) ? 'redirect' : 'refused_address'
  const name = (err as { name?: unknown } | null)?.name
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout'
  return 'connection'
}

export async function sendAttempt(
  deps: Pick<Deps, 'networks' | 'clock'>,
  policy: WebhookPolicy,
  request: { url: string; headers: Record<string, string>; body: string },
): Promise<AttemptResult> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  try {
    const response = await deps.networks.fetch(
      new Request(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...request.headers },
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(policy.timeoutMs),
      }),
    )
    const responseBody = await readHead(response, RESPONSE_BODY_BYTES)
    const status = response.status
    const ok = status >= 200 && status < 300
    const retryAfterMs =
      status === 429 || status === 503 ? parseRetryAfter(response.headers.get('retry-after'), deps.clock.now()) : null
    return {
      ok,
      statusCode: status,
      durationMs: elapsed(),
      responseBody,
      errorClass: ok ? null : status >= 300 && status < 400 ? 'redirect' : 'http_status',
      retryAfterMs,
    }
  } catch (err) {
    return {
      ok: false,
      statusCode: null,
      durationMs: elapsed(),
      responseBody: null,
      errorClass: classify(err),
      retryAfterMs: null,
    }
  }
}
