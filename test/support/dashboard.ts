/**
 * Signing in to the dashboard in tests, as a browser does: a user and their membership made through the
 * services, then the real sign-in form (its CSRF cookie and field), so the session cookie is the one
 * the app sets.
 */
import type { createApp } from '../../src/app'
import type { Deps } from '../../src/deps'
import type { MemberRole } from '../../src/domain/people'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createUser } from '../../src/services/people/users'

type App = ReturnType<typeof createApp>

/** The `name=value` pairs of a response's Set-Cookie headers. */
export function cookiesOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const at = pair!.indexOf('=')
    out[pair!.slice(0, at)] = pair!.slice(at + 1)
  }
  return out
}

/** The value of the page's hidden `_csrf` field. */
export const csrfOf = (html: string): string => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''

/** Submits the sign-in form for the email and password; the answer of the POST (303 when it worked). */
export async function submitSignIn(app: App, email: string, password: string, ip = '10.9.9.9'): Promise<Response> {
  const form = await app.request('/app/sign-in', { headers: { 'x-forwarded-for': ip } })
  const formCookie = cookiesOf(form).sps_form!
  return app.request('/app/sign-in', {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `sps_form=${formCookie}`,
      'x-forwarded-for': ip,
    },
    body: new URLSearchParams({ _csrf: formCookie, email, password }).toString(),
  })
}

/**
 * A new user, member of the workspace with the role (default `member`), signed in through the form:
 * the `Cookie` header to send and the CSRF token of the session's forms.
 */
export async function signInMember(
  app: App,
  deps: Deps,
  options: { workspaceId: string; role?: MemberRole },
): Promise<{ cookie: string; csrfToken: string; userId: string; email: string }> {
  const email = `member-${randomBase62(10)}@example.com`
  const password = `pw-${randomBase62(16)}`
  const user = await createUser(deps, { email, name: 'Test member', password })
  await deps.db.transaction((tx) => addMember(tx, options.workspaceId, user.id, options.role ?? 'member'))
  const res = await submitSignIn(
    app,
    email,
    password,
    `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  )
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`)
  const cookie = `sps_session=${cookiesOf(res).sps_session}`
  const page = await app.request(`/app/w/${options.workspaceId}/settings`, { headers: { cookie } })
  return { cookie, csrfToken: csrfOf(await page.text()), userId: user.id, email }
}
