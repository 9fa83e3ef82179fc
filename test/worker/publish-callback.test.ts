/// <reference types="@cloudflare/workers-types" />
/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { publishCallbackUrl } from '../../src/infra/publish-queue/qstash'
import { createWorkerIsolate } from '../../src/runtime/worker-deps'
import { signUpstashJwt, type LocalMessage } from '../support/qstash-local'

/**
 * Inside workerd: the QStash side of the Worker. The callback goes through the Worker's own fetch
 * handler (so it gets the Worker's deps and QStash keys), and the publish queue the Worker builds
 * talks to the QStash stand-in that global setup started on Node (QSTASH_URL).
 */
const bindings = env as unknown as Record<string, string>
const self = (exports as unknown as { default: Fetcher }).default
const callbackUrl = publishCallbackUrl(bindings.PUBLIC_URL!)

function callback(body: string, signature?: string) {
  return self.fetch('https://api.test/internal/publish', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'CF-Connecting-IP': `smoke-${crypto.randomUUID()}`,
      ...(signature ? { 'upstash-signature': signature } : {}),
    },
    body,
  })
}

describe('QStash in workerd', () => {
  const body = JSON.stringify({ targetId: 'tgt_workerd_unknown', version: 1 })

  it('answers an unsigned or forged callback 401 with the contract error body', async () => {
    for (const signature of [undefined, await signUpstashJwt({ key: 'sig_not_the_key', url: callbackUrl, body })]) {
      const res = await callback(body, signature)
      expect(res.status).toBe(401)
      const requestId = res.headers.get('X-Request-Id')
      expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String), requestId } })
    }
  })

  it('hands a callback signed for PUBLIC_URL/internal/publish to the engine (Receiver in workerd)', async () => {
    const res = await callback(
      body,
      await signUpstashJwt({ key: bindings.QSTASH_CURRENT_SIGNING_KEY!, url: callbackUrl, body }),
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ outcome: 'skipped' })
  })

  it('enqueues through the fetch-based QStash Client to QSTASH_URL', async () => {
    const runtime = (await createWorkerIsolate(bindings)).open()
    const notBefore = new Date(Date.now() + 3_600_000)
    try {
      await runtime.deps.publishQueue.enqueue([{ targetId: 'tgt_workerd_queue', version: 3, attempt: 1, notBefore }])
    } finally {
      await runtime.close()
    }
    const published = (await fetch(`${bindings.QSTASH_URL}/local/publishes`, {
      headers: { Authorization: `Bearer ${bindings.QSTASH_TOKEN}` },
    }).then((r) => r.json())) as LocalMessage[]
    const message = published.find((m) => m.body.includes('tgt_workerd_queue'))
    expect(message).toMatchObject({ destination: callbackUrl, deduplicated: false })
    expect(message!.headers).toMatchObject({
      'upstash-not-before': String(Math.ceil(notBefore.getTime() / 1000)),
      'upstash-deduplication-id': `tgt_workerd_queue-v3-a1-t${notBefore.getTime()}`,
    })
  })
})
