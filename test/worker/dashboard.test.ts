/// <reference types="@cloudflare/workers-types" />
/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'

/**
 * The dashboard inside workerd: sign-up refuses a common password (the zxcvbn-ts estimate runs in
 * workerd), hashes the password with PBKDF2 at 600,000 iterations (in chunks the runtime accepts),
 * signs in through the form, and a workspace page renders with its CSP.
 */
const self = (exports as unknown as { default: Fetcher }).default
const clientIp = `dashboard-${crypto.randomUUID()}`

function call(path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  headers.set('CF-Connecting-IP', clientIp)
  return self.fetch(new URL(path, 'https://api.test').href, { ...init, headers, redirect: 'manual' })
}

const cookie = (res: Response, name: string) =>
  new RegExp(`${name}=([^;]+)`).exec(res.headers.get('set-cookie') ?? '')?.[1]

describe('dashboard in workerd', () => {
  it('signs up, renders a workspace page with its CSP, and signs in again', async () => {
    const form = await call('/app/sign-up')
    expect(form.status).toBe(200)
    await form.text()
    const formToken = cookie(form, 'sps_form')!
    const email = `worker-${crypto.randomUUID()}@example.com`
    const password = 'worker password'
    const post = (path: string, fields: Record<string, string>, cookies: string) =>
      call(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookies },
        body: new URLSearchParams(fields),
      })
    // The password rule's estimator (zxcvbn-ts and its dictionaries) loads and runs in workerd.
    const weak = await post(
      '/app/sign-up',
      { _csrf: formToken, name: 'W', email, password: '12345678' },
      `sps_form=${formToken}`,
    )
    expect(weak.status).toBe(400)
    expect(await weak.text()).toMatch(/<p id="f-password-error" class="error">This password is among the most common/)
    const signedUp = await post(
      '/app/sign-up',
      { _csrf: formToken, name: 'W', email, password },
      `sps_form=${formToken}`,
    )
    expect(signedUp.status).toBe(303)
    const session = cookie(signedUp, 'sps_session')!
    expect(signedUp.headers.get('set-cookie')).toMatch(/Secure/)
    const settings = await call(`${signedUp.headers.get('Location')}/settings`, {
      headers: { Cookie: `sps_session=${session}` },
    })
    expect(settings.status).toBe(200)
    expect(settings.headers.get('Content-Security-Policy')).toContain("default-src 'none'")
    const page = await settings.text()
    expect(page).toContain('<title>Workspace · ')
    expect(page).toContain('Its name, its clock, how posts get approved, and what the plan allows.')

    const signedIn = await post('/app/sign-in', { _csrf: formToken, email, password }, `sps_form=${formToken}`)
    expect(signedIn.status).toBe(303)
  }, 60_000) // two PBKDF2 runs of 600,000 iterations on a shared CI machine

  it('serves the page scripts bundled from src/dashboard/client/ (the generated module is in the Worker)', async () => {
    const plain = await call('/app/assets/composer.js')
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const code = await plain.text()
    expect(code).toContain('X-CSRF-Token')
    expect(plain.headers.get('etag')).toBeTruthy()
  })
})
