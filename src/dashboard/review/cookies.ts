/**
 * The review pages' cookies, both scoped to the link's own path (`/review/{token}`): the form token
 * of the double-submit check, and the name the visitor gave. Neither is a session: the name is only
 * what the visitor says they are called, and the link's token is what grants access.
 */
import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import type { AppEnv } from '../../http/context'
import { randomBase62 } from '../../lib/ids'
import { cookieIsSecure, csrfMatches, sameOrigin } from '../session'
import { checkVisitorName } from '../../domain/review-links'

const FORM_COOKIE = 'sps_review_form'
const NAME_COOKIE = 'sps_review_name'

/** The form token of the link's forms: the cookie's, else a new one set now. */
export function formTokenFor(c: Context, base: string): string {
  const existing = getCookie(c, FORM_COOKIE)
  if (existing && /^[0-9A-Za-z]{32}$/.test(existing)) return existing
  const token = randomBase62(32)
  setCookie(c, FORM_COOKIE, token, { path: base, httpOnly: true, secure: cookieIsSecure(c), sameSite: 'Strict' })
  return token
}

/** Whether the submitted form token is the cookie's (constant-time). */
export const formTokenMatches = (c: Context, submitted: unknown): boolean =>
  csrfMatches(getCookie(c, FORM_COOKIE), typeof submitted === 'string' ? submitted : null)

/**
 * A form sent by a page of ours: an `Origin` of another site is refused. Under the pages' `no-referrer`
 * policy a browser sends `Origin: null` even from our own page, so then its `Sec-Fetch-Site` decides.
 */
export function sameSiteForm(c: Context<AppEnv>): boolean {
  const origin = c.req.header('origin')
  if (origin === undefined || origin === 'null') {
    const site = c.req.header('sec-fetch-site')
    return site === undefined || site === 'same-origin'
  }
  return sameOrigin(c, c.var.deps.settings.publicUrl)
}

/** Keeps the visitor's name for the link's pages until the link expires. */
export function setVisitorName(c: Context, base: string, name: string, expiresAt: Date): void {
  setCookie(c, NAME_COOKIE, encodeURIComponent(name), {
    path: base,
    httpOnly: true,
    secure: cookieIsSecure(c),
    sameSite: 'Strict',
    expires: expiresAt,
  })
}

/** The name the visitor gave on this link, or null (none yet, or not one we would take). */
export function visitorNameOf(c: Context): string | null {
  const stored = getCookie(c, NAME_COOKIE)
  if (!stored) return null
  let decoded: string
  try {
    decoded = decodeURIComponent(stored)
  } catch {
    return null
  }
  const checked = checkVisitorName(decoded)
  return 'name' in checked ? checked.name : null
}
