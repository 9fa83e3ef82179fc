/**
 * The dashboard's cookies and request checks: the session cookie (HttpOnly, SameSite=Lax, Secure
 * except on plain http to a loopback host), the pre-session CSRF cookie of the sign-in and sign-up
 * forms, the CSRF comparison and the Content-Security-Policy every answer carries.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { AppEnv } from '../http/context'
import { constantTimeEqual } from '../lib/crypto'
import { randomBase62 } from '../lib/ids'
import type { StartedSession } from '../services/people/sessions'

export const SESSION_COOKIE = 'sps_session'
/** Double-submit token of the forms shown before a session exists (sign-in, sign-up, invitation). */
export const FORM_COOKIE = 'sps_form'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Secure everywhere but plain http to this machine (a browser would drop a Secure cookie there). */
export function cookieIsSecure(c: Context): boolean {
  const url = new URL(c.req.url)
  return !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
}

export const sessionToken = (c: Context): string | null => getCookie(c, SESSION_COOKIE) ?? null

export function setSessionCookie(c: Context, session: StartedSession): void {
  setCookie(c, SESSION_COOKIE, session.token, {
    path: '/app',
    httpOnly: true,
    secure: cookieIsSecure(c),
    sameSite: 'Lax',
    expires: session.expiresAt,
  })
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/app', secure: cookieIsSecure(c) })
}

/** The form token of a public form: the cookie's when it has one, else a new one set now. */
export function formToken(c: Context): string {
  const existing = getCookie(c, FORM_COOKIE)
  if (existing && /^[0-9A-Za-z]{32}$/.test(existing)) return existing
  const token = randomBase62(32)
  setCookie(c, FORM_COOKIE, token, { path: '/app', httpOnly: true, secure: cookieIsSecure(c), sameSite: 'Lax' })
  return token
}

/** Whether a submitted CSRF token matches the expected one (constant-time; an empty one never does). */
export const csrfMatches = (expected: string | undefined, submitted: string | undefined | null): boolean =>
  !!expected && !!submitted && constantTimeEqual(expected, submitted)

/** The token a state-changing request carries: form field `_csrf`, or header `X-CSRF-Token` for scripts. */
export async function submittedCsrf(c: Context): Promise<string | null> {
  const header = c.req.header('x-csrf-token')
  if (header) return header
  const type = c.req.header('content-type') ?? ''
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return null
  const value = (await c.req.parseBody())._csrf
  return typeof value === 'string' ? value : null
}

/** The form's fields as strings (files and repeated fields dropped), parsed once per request. */
export async function formFields(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody()
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v
  return out
}

/** Origins beyond our own a page may reach: the media store (thumbnails, and uploads straight to it). */
export interface PolicyOrigins {
  images?: string[]
  connect?: string[]
  formTargets?: string[]
}

/** The policy of every dashboard answer: our own scripts and styles only, no framing, forms back to us. */
export function contentSecurityPolicy(origins: PolicyOrigins = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${["'self'", 'data:', 'blob:', ...(origins.images ?? [])].join(' ')}`,
    `connect-src ${["'self'", ...(origins.connect ?? [])].join(' ')}`,
    `form-action ${["'self'", ...(origins.formTargets ?? [])].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ')
}

/**
 * Security headers on every dashboard answer; pages are never cached (they carry CSRF tokens and
 * data). `policy` gives the request's Content-Security-Policy (it depends on where the store is).
 */
export const securityHeaders =
  (policy: (c: Context<AppEnv>) => Promise<string>): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await next()
    // A page may widen its own policy (the agent consent page lets its form end at the client).
    if (!c.res.headers.has('Content-Security-Policy')) c.res.headers.set('Content-Security-Policy', await policy(c))
    c.res.headers.set('X-Content-Type-Options', 'nosniff')
    c.res.headers.set('Referrer-Policy', 'same-origin')
    c.res.headers.set('X-Frame-Options', 'DENY')
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store')
  }

/** A state-changing request from another origin is refused whatever it carries (defence beside the token). */
export function sameOrigin(c: Context, publicUrl: string | null): boolean {
  const origin = c.req.header('origin')
  if (origin === undefined) return true
  return origin === new URL(c.req.url).origin || (publicUrl !== null && origin === new URL(publicUrl).origin)
}
