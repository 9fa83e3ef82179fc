/// <reference types="@cloudflare/workers-types" />
/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { env, exports } from 'cloudflare:workers'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { webhookCallbackUrl } from '../../src/domain/delivery-callbacks'
import { createWorkerIsolate } from '../../src/runtime/worker-deps'
import { newWebhookSecret, signedHeaders } from '../../src/services/webhooks/signing'
import { signUpstashJwt, type LocalMessage } from '../support/qstash-local'

/**
 * Inside workerd: webhook attempts go through QStash to `/internal/webhook-delivery`, checked by the
 * same verifier as the publish callback, and messages are signed with standardwebhooks in workerd.
 */
const bindings = env as unknown as Record<string, string>
const self = (exports as unknown as { default: Fetcher }).default
const callbackUrl = webhookCallbackUrl(bindings.PUBLIC_URL!)

function callback(body: string, signature?: string) {
  return self.fetch('https://api.test/internal/webhook-delivery', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'CF-Connecting-IP': `smoke-${crypto.randomUUID()}`,
      ...(signature ? { 'upstash-signature': signature } : {}),
    },
    body,
  })
}

describe('webhooks in workerd', () => {
  const body = JSON.stringify({ deliveryId: 'whd_workerd_unknown' })

  it('answers an unsigned or forged attempt callback 401, and a signed one runs the worker', async () => {
    for (const signature of [undefined, await signUpstashJwt({ key: 'sig_not_the_key', url: callbackUrl, body })]) {
      expect((await callback(body, signature)).status).toBe(401)
    }
    const signed = await signUpstashJwt({ key: bindings.QSTASH_CURRENT_SIGNING_KEY!, url: callbackUrl, body })
    const res = await callback(body, signed)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ outcome: 'skipped' })
  })

  it('signs with standardwebhooks so that the library verifies it', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()]
    const message = { id: 'evt_workerd', timestamp: new Date(), body: '{"hello":"workerd"}' }
    const headers = signedHeaders([current, previous], message)
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2)
    for (const secret of [current, previous])
      expect(new Webhook(secret).verify(message.body, headers)).toEqual({ hello: 'workerd' })
  })

  it('enqueues an attempt through QStash to the signed internal route', async () => {
    const runtime = (await createWorkerIsolate(bindings)).open()
    const notBefore = new Date(Date.now() + 3_600_000)
    try {
      await runtime.deps.webhookQueue.enqueue([{ deliveryId: 'whd_workerd_queue', notBefore }])
    } finally {
      await runtime.close()
    }
    const published = (await fetch(`${bindings.QSTASH_URL}/local/publishes`, {
      headers: { Authorization: `Bearer ${bindings.QSTASH_TOKEN}` },
    }).then((r) => r.json())) as LocalMessage[]
    const message = published.find((m) => m.body.includes('whd_workerd_queue'))
    expect(message).toMatchObject({ destination: callbackUrl })
    expect(message!.headers).toMatchObject({ 'upstash-not-before': String(Math.ceil(notBefore.getTime() / 1000)) })
  })
})
