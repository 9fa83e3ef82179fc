/// <reference types="@cloudflare/workers-types" />
/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { exports } from 'cloudflare:workers'
import { describe, expect, inject, it } from 'vitest'

/**
 * Hosted connect inside workerd: a sandbox link, its page (the policy's style hash made with
 * WebCrypto), the consent page, the callback storing the account, and the account's health.
 */
const fixture = inject('workerSmoke')
const self = (exports as unknown as { default: Fetcher }).default
const clientIp = `connect-${crypto.randomUUID()}`

function call(url: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  headers.set('CF-Connecting-IP', clientIp)
  return self.fetch(new URL(url, 'https://api.test').href, { ...init, headers, redirect: 'manual' })
}

describe('hosted connect in workerd', () => {
  it('connects a sandbox account through its consent page', async () => {
    const auth = { Authorization: `Bearer ${fixture.token}`, 'Content-Type': 'application/json' }
    const created = await call('/v1/accounts/connect', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ platform: 'PHOTO_NET', connection: 'SANDBOX' }),
    })
    expect(created.status).toBe(200)
    const { url } = (await created.json()) as { url: string }
    const path = new URL(url).pathname

    const start = await call(path)
    expect(start.status).toBe(200)
    expect(start.headers.get('Content-Security-Policy')).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/)
    await start.text()

    const toConsent = await call(`${path}/authorize`)
    expect(toConsent.status).toBe(302)
    const consentUrl = new URL(toConsent.headers.get('Location')!)
    const consent = await call(consentUrl.pathname + consentUrl.search)
    expect(consent.status).toBe(200)
    await consent.text()

    const decision = await call('/sandbox/oauth/authorize', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        platform: consentUrl.searchParams.get('platform')!,
        state: consentUrl.searchParams.get('state')!,
        redirect_uri: consentUrl.searchParams.get('redirect_uri')!,
        username: 'worker_studio',
        decision: 'allow',
      }),
    })
    expect(decision.status).toBe(302)
    const callback = new URL(decision.headers.get('Location')!)
    const done = await call(callback.pathname + callback.search)
    expect(done.status).toBe(200)
    expect(await done.text()).toContain('worker_studio')

    const list = await call('/v1/accounts', { headers: auth })
    const accounts = (await list.json()) as Array<{ username: string; status: string; connectedAt: string }>
    expect(accounts.find((a) => a.username === 'worker_studio')).toMatchObject({ status: 'ACTIVE' })
  })
})
