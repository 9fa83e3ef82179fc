/// <reference types="@cloudflare/workers-types" />
/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { env, exports } from 'cloudflare:workers'
import { describe, expect, inject, it } from 'vitest'

/**
 * Inside workerd: `GET /v1/events/stream` opens through the Worker's own fetch handler and sends an
 * event committed after it opened (a test ping of an endpoint), read from PostgreSQL through the
 * Neon driver while the stream is open.
 */
const fixture = inject('workerSmoke')
const bindings = env as unknown as Record<string, string>
const self = (exports as unknown as { default: Fetcher }).default
const clientIp = `stream-${crypto.randomUUID()}`

function call(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
  return self.fetch(`https://api.test${path}`, {
    method,
    headers: {
      'CF-Connecting-IP': clientIp,
      Authorization: `Bearer ${fixture.token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  })
}

/** Reads the stream until `done` holds for the text so far (or 15 s pass); answers the text. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, done: (text: string) => boolean) {
  const decoder = new TextDecoder()
  let text = ''
  const deadline = Date.now() + 15_000
  while (!done(text) && Date.now() < deadline) {
    const { value, done: ended } = await reader.read()
    if (ended) break
    text += decoder.decode(value, { stream: true })
  }
  return text
}

describe('the event stream in workerd', () => {
  it('opens with retry and sends an event committed after it opened', async () => {
    const res = await call('GET', '/v1/events/stream?types=ping')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = res.body!.getReader()
    try {
      expect(await readUntil(reader, (text) => text.includes('\n\n'))).toBe('retry: 2000\n\n')
      // The QStash stand-in is no receiver: the ping's attempt fails, its event is recorded all the same.
      const url = `${bindings.QSTASH_URL}/not-a-receiver`
      const endpoint = (await (
        await call('POST', '/v1/webhooks', { body: { url, events: ['post.failed'] } })
      ).json()) as {
        id: string
      }
      expect((await call('POST', `/v1/webhooks/${endpoint.id}/test`)).status).toBe(200)
      const text = await readUntil(reader, (t) => /data: .*\n\n/.test(t))
      const [, id, data] = /id: (\S+)\nevent: ping\ndata: (.*)\n\n/.exec(text) ?? []
      expect(JSON.parse(data!)).toMatchObject({ id, type: 'ping', data: { endpointId: endpoint.id } })
      await call('DELETE', `/v1/webhooks/${endpoint.id}`)
    } finally {
      await reader.cancel()
    }
  }, 60_000) // the file's first request makes the isolate: seconds on a shared 2-core machine
})
