/**
 * The working pages of a fresh test workspace, reached as a browser reaches them: the whole app, a
 * member signed in through the real sign-in form (session cookie, its CSRF token), so the session,
 * membership and CSRF middleware in front of the pages is the one users go through.
 */
import type { MemberRole } from '../../src/domain/people'
import { signInMember } from './dashboard'
import { createTestApp, type TestApp, type TestAppOptions, type TestResponse } from './test-app'
import { addSandboxAccount } from '../../src/services/accounts/accounts'
import { createWorkspace } from '../../src/services/workspace/workspaces'

export interface PagesApp {
  t: TestApp
  member: { userId: string; email: string; workspaceId: string; role: MemberRole }
  /** The session's CSRF token (what the pages' forms carry). */
  csrfToken: string
  /** The address of a page of the test workspace. */
  page(path?: string): string
  get(path: string): Promise<TestResponse>
  /** Any request to a page of the test workspace (a script's request); the session cookie is added. */
  request(path: string, init: RequestInit): Promise<TestResponse>
  /** A request to any address of the app (`/app/assets/composer.js`), with the session cookie. */
  absolute(path: string, init?: RequestInit): Promise<TestResponse>
  /** A form post (the CSRF field added unless `csrf: null`). */
  post(path: string, form: Record<string, string | string[]>, opts?: { csrf?: string | null }): Promise<TestResponse>
  /** A new session for the same kind of member (after the test's clock moved past the idle limit). */
  signInAgain(): Promise<void>
}

export async function mountContentPages(options: TestAppOptions & { role?: MemberRole } = {}): Promise<PagesApp> {
  const t = await createTestApp(options)
  const role = options.role ?? 'member'
  let session = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role })
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    const extra = headers.get('cookie') // a cookie the page set (the flash notice), sent back as a browser would
    headers.set('cookie', extra ? `${session.cookie}; ${extra}` : session.cookie)
    headers.set('x-forwarded-for', t.ip)
    return (await t.app.request(path, { ...init, headers })) as TestResponse
  }
  const page = (path = '') => `/app/w/${t.workspaceId}${path}`
  return {
    t,
    get member() {
      return { userId: session.userId, email: session.email, workspaceId: t.workspaceId, role }
    },
    get csrfToken() {
      return session.csrfToken
    },
    page,
    get: (path) => send(page(path)),
    absolute: (path, init) => send(path, init),
    request: (path, init) => send(page(path), init),
    async signInAgain() {
      session = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role })
    },
    post(path, form, opts = {}) {
      const body = new URLSearchParams()
      const csrf = opts.csrf === undefined ? session.csrfToken : opts.csrf
      if (csrf !== null) body.append('_csrf', csrf)
      for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x)
      return send(page(path), {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    },
  }
}

/** Another workspace with one sandbox microblog account (`theirs`): what a member of the first must never see. */
export async function otherWorkspaceAccount(t: TestApp) {
  const other = await createWorkspace(t.deps.db, { name: 'Other', planId: 'pro', timezone: 'UTC' })
  const theirs = await addSandboxAccount(t.deps.db, t.deps.cipher, {
    workspaceId: other.id,
    platform: 'MICROBLOG_NET',
    username: 'theirs',
  })
  return { other, theirs }
}
