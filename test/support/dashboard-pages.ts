import { Hono } from 'hono'
import { CONTENT_ASSETS } from '../../src/dashboard/assets/content-assets'
import { registerContentPages } from '../../src/dashboard/content-pages'
import type { DashboardEnv, DashboardMember } from '../../src/dashboard/env'
import { createTestApp, type TestApp, type TestAppOptions, type TestResponse } from './test-app'

/** The CSRF token of the harness's member. */
export const TEST_CSRF = 'csrf-token-of-the-test-member'

export interface PagesApp {
  t: TestApp
  member: DashboardMember
  /** The address of a page of the test workspace. */
  page(path?: string): string
  get(path: string): Promise<TestResponse>
  /** Any request to a page of the test workspace (a script's request). */
  request(path: string, init: RequestInit): Promise<TestResponse>
  /** A request to any dashboard address (`/app/assets/composer.js`). */
  absolute(path: string, init?: RequestInit): Promise<TestResponse>
  /** A form post (the CSRF field added unless `csrf: null`). */
  post(path: string, form: Record<string, string | string[]>, opts?: { csrf?: string | null }): Promise<TestResponse>
}

/**
 * The working pages over a fresh test workspace, signed in as a member of it: what the dashboard's
 * sign-in and membership middleware provide (deps, member, CSRF token and its check) stands in
 * here until the pages are reached through the real sign-in.
 */
export async function mountContentPages(options: TestAppOptions = {}): Promise<PagesApp> {
  const t = await createTestApp(options)
  const member: DashboardMember = {
    userId: 'user_test',
    email: 'member@example.test',
    name: 'Test member',
    workspaceId: t.workspaceId,
    workspaceName: 'Test workspace',
    timeZone: options.timezone ?? 'UTC',
    role: 'member',
  }
  const sub = new Hono<DashboardEnv>()
  sub.use(async (c, next) => {
    c.set('deps', t.deps)
    c.set('member', member)
    c.set('csrfToken', TEST_CSRF)
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const field = (await c.req.parseBody())._csrf
      if (c.req.header('x-csrf-token') !== TEST_CSRF && field !== TEST_CSRF) return c.text('Forbidden', 403)
    }
    await next()
  })
  registerContentPages(sub)
  const app = new Hono()
  app.get('/app/assets/:name', (c) => {
    const asset = CONTENT_ASSETS[c.req.param('name')]
    return asset ? c.body(asset.body, 200, { 'content-type': asset.contentType }) : c.notFound()
  })
  app.route(`/app/w/${t.workspaceId}`, sub)
  const page = (path = '') => `/app/w/${t.workspaceId}${path}`
  return {
    t,
    member,
    page,
    async get(path) {
      return (await app.request(page(path))) as TestResponse
    },
    async absolute(path, init) {
      return (await app.request(path, init)) as TestResponse
    },
    async request(path, init) {
      return (await app.request(page(path), init)) as TestResponse
    },
    async post(path, form, opts = {}) {
      const body = new URLSearchParams()
      const csrf = opts.csrf === undefined ? TEST_CSRF : opts.csrf
      if (csrf !== null) body.append('_csrf', csrf)
      for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x)
      return (await app.request(page(path), {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })) as TestResponse
    },
  }
}
