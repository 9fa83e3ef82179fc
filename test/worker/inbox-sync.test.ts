/// <reference types="@cloudflare/workers-types" />
/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { inboxSyncCallbackUrl } from '../../src/domain/delivery-callbacks'
import { createWorkerIsolate } from '../../src/runtime/worker-deps'
import { signUpstashJwt, type LocalMessage } from '../support/qstash-local'

/**
 * Inside workerd: the Worker's deps carry a sync queue, so the Cron pass hands due accounts to
 * QStash, and `/internal/inbox-sync` is checked by the same verifier as the other callbacks.
 */
const bindings = env as unknown as Record<string, string>
const self = (exports as unknown as { default: Fetcher }).default
const callbackUrl = inboxSyncCallbackUrl(bindings.PUBLIC_URL!)

function callback(body: string, signature?: string) {
  return self.fetch('https://api.test/internal/inbox-sync', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'CF-Connecting-IP': `smoke-${crypto.randomUUID()}`,
      ...(signature ? { 'upstash-signature': signature } : {}),
    },
    body,
  })
}

describe('inbox sync in workerd', () => {
  const body = JSON.stringify({ accountId: 'acc_workerd_unknown' })

  it('answers an unsigned or forged sync callback 401, and runs a signed one', async () => {
    for (const signature of [undefined, await signUpstashJwt({ key: 'sig_not_the_key', url: callbackUrl, body })]) {
      const res = await callback(body, signature)
      expect(res.status).toBe(401)
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized')
    }
    for (const key of [bindings.QSTASH_CURRENT_SIGNING_KEY!, bindings.QSTASH_NEXT_SIGNING_KEY!]) {
      const res = await callback(body, await signUpstashJwt({ key, url: callbackUrl, body }))
      expect(res.status).toBe(200)
      // No such account: nothing to sync.
      expect(await res.json()).toEqual({ ran: false, failed: [] })
    }
  })

  it('hands a due account to QStash, once per account and pass', async () => {
    const runtime = (await createWorkerIsolate(bindings)).open()
    const pass = new Date()
    try {
      expect(runtime.deps.syncQueue).toBeDefined()
      const item = { accountId: 'acc_workerd_queue', pass }
      await runtime.deps.syncQueue!.enqueue([item])
      await runtime.deps.syncQueue!.enqueue([item])
    } finally {
      await runtime.close()
    }
    const published = (await fetch(`${bindings.QSTASH_URL}/local/publishes`, {
      headers: { Authorization: `Bearer ${bindings.QSTASH_TOKEN}` },
    }).then((r) => r.json())) as LocalMessage[]
    const mine = published.filter((m) => m.body === JSON.stringify({ accountId: 'acc_workerd_queue' }))
    expect(mine.map((m) => m.deduplicated)).toEqual([false, true])
    expect(mine[0]).toMatchObject({ destination: callbackUrl })
    expect(mine[0]!.headers).toMatchObject({ 'upstash-deduplication-id': `acc_workerd_queue-p${pass.getTime()}` })
  })
})
