/**
 * The colour theme a person chose: light, dark or system (follow `prefers-color-scheme`). The choice
 * is a cookie set by `POST /app/theme` (a plain form, no script), and every dashboard page renders it
 * as `data-theme` on its root element, which the tokens read (styles/tokens.ts).
 */
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { AppEnv } from '../http/context'
import { resolveSession } from '../services/people/sessions'
import { safeNext } from './auth'
import { forbiddenPage } from './pages'
import { cookieIsSecure, csrfMatches, FORM_COOKIE, formFields, sameOrigin, sessionToken } from './session'

export const THEME_COOKIE = 'sps_theme'
export const THEMES = ['light', 'dark', 'system'] as const
export type Theme = (typeof THEMES)[number]

const YEAR_SEC = 365 * 24 * 3600

/** The theme the request's cookie holds; `system` when none or anything else. */
export function themeOf(c: Context): Theme {
  const value = getCookie(c, THEME_COOKIE)
  return value === 'light' || value === 'dark' ? value : 'system'
}

/** The same-origin dashboard path to go back to: the form's `back`, else the Referer's path, else `/app`. */
function returnPath(c: Context, back: string | undefined): string {
  if (back) return safeNext(back)
  const referer = c.req.header('referer')
  if (!referer) return '/app'
  try {
    const url = new URL(referer)
    if (url.origin !== new URL(c.req.url).origin) return '/app'
    return safeNext(`${url.pathname}${url.search}`)
  } catch {
    return '/app'
  }
}

/** The form's token is the session's when signed in, else the public forms' double-submit cookie. */
async function csrfValid(c: Context<AppEnv>, submitted: string | undefined): Promise<boolean> {
  const { db, clock } = c.var.deps
  const token = sessionToken(c)
  const session = token ? await resolveSession(db, token, clock.now()) : null
  return csrfMatches(session ? session.csrfToken : getCookie(c, FORM_COOKIE), submitted)
}

/** Registers `POST /theme`: stores the choice (system clears it) and goes back with a 303. */
export function registerThemeRoute(app: Hono<AppEnv>): void {
  app.post('/theme', async (c) => {
    const fields = await formFields(c)
    if (!sameOrigin(c, c.var.deps.settings.publicUrl) || !(await csrfValid(c, fields._csrf)))
      return forbiddenPage(c, 'This form expired. Go back, reload the page and try again.')
    const theme = THEMES.find((t) => t === fields.theme) ?? 'system'
    if (theme === 'system') deleteCookie(c, THEME_COOKIE, { path: '/app', secure: cookieIsSecure(c) })
    else
      setCookie(c, THEME_COOKIE, theme, {
        path: '/app',
        httpOnly: true,
        secure: cookieIsSecure(c),
        sameSite: 'Lax',
        maxAge: YEAR_SEC,
      })
    return c.redirect(returnPath(c, fields.back), 303)
  })
}

const ROOT_TAG = '<html lang="en">'

/**
 * Renders the chosen theme on every HTML page of the dashboard: `data-theme` on the root element,
 * so signed-in pages, public pages and error pages all follow the choice without each passing it on.
 */
export const themeAttribute: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next()
  const theme = themeOf(c)
  if (theme === 'system' || !c.res.headers.get('content-type')?.startsWith('text/html')) return
  const html = await c.res.text()
  c.res = new Response(html.replace(ROOT_TAG, `<html lang="en" data-theme="${theme}">`), c.res)
}
