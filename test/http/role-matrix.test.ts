/**
 * The role matrix of `/v1`: every registered operation (read from the routes the app registers,
 * never a hand list), called with a token of each role. A role the operation's permission allows
 * is never refused with 403 `forbidden`; any other role is, before anything is read or written: the
 * path names the workspace's real post, account, group, label, note and review link, and the
 * workspace's rows (support/fuzz-workspace.ts `snapshot`) are the same after each refusal. A caller
 * limited to a group gets 404 for the review steps of a post outside it, as for an unknown post.
 */
import { OpenAPIHono } from '@hono/zod-openapi'
import { describe, expect, it } from 'vitest'
import { can } from '../../src/domain/access'
import { MEMBER_ROLES } from '../../src/domain/people'
import type { AppEnv } from '../../src/http/context'
import { registerRoutes } from '../../src/routes'
import { snapshot } from '../reliability/support/fuzz-workspace'
import { account } from '../support/fixtures'
import { label, limitedToken } from '../support/groups'
import { memberWithToken } from '../support/people'
import { createLink, groupWithAccounts, postInReview } from '../support/review-links'
import { createTestApp, type TestApp } from '../support/test-app'

const ROUTES = registerRoutes(new OpenAPIHono<AppEnv>())

/** Real ids of the workspace, by the path segment before `:id` (`posts`, `groups`, …) and by parameter name. */
async function seed(t: TestApp, author: string): Promise<Record<string, string>> {
  const brand = await groupWithAccounts(t, 'Brand', ['matrix.brand'])
  const post = await postInReview(t, [brand.accounts[0]!.id], 'in review')
  // The note is the caller's own (its author may delete it; every role may comment).
  const note = await (
    await t.call('POST', `/v1/posts/${post.id}/notes`, { token: author, body: { body: 'a note' } })
  ).json()
  const { link } = await createLink(t, brand.id)
  return {
    posts: post.id,
    accounts: brand.accounts[0]!.id,
    groups: brand.id,
    labels: (await label(t, 'Campaign')).id,
    'review-links': link.id,
    noteId: note.id,
  }
}

/** The path with each parameter filled with a real id of its kind, else an id that names nothing. */
const concrete = (path: string, ids: Record<string, string>) =>
  path.replace(
    /\/([^/]+)\/:([A-Za-z]+)/g,
    (_, before: string, name: string) =>
      `/${before}/${ids[name] ?? (name === 'id' ? ids[before] : undefined) ?? 'nothing_here'}`,
  )

describe('the role matrix of /v1', () => {
  it('lists every operation with a permission', () => {
    expect(ROUTES.length).toBeGreaterThan(50)
    for (const r of ROUTES) expect(r.meta.permission, `${r.method} ${r.path}`).toBeTruthy()
  })

  for (const role of MEMBER_ROLES) {
    it(`answers a ${role} by the permission of each operation`, async () => {
      // An app (and a client address, so a rate-limit bucket) per role: each walks every operation.
      const t = await createTestApp()
      // A member's own token (the notification routes answer a token with a user).
      const { token } = await memberWithToken(t, role)
      const ids = await seed(t, token)
      for (const r of ROUTES) {
        // The event stream stays open for a role that may read it: only its refusal is checked here.
        if (r.path.endsWith('/events/stream') && can(role, r.meta.permission)) continue
        const before = can(role, r.meta.permission) ? null : await snapshot(t.deps.db, t.workspaceId)
        const res = await t.call(r.method, concrete(r.path, ids), {
          token,
          body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
          headers: { 'idempotency-key': `matrix-${role}-${Math.random()}` },
        })
        const what = `${role} ${r.method} ${r.path} (${r.meta.permission}) -> ${res.status}`
        if (can(role, r.meta.permission)) {
          expect(res.status, what).not.toBe(403)
          await res.body?.cancel()
        } else {
          expect(res.status, what).toBe(403)
          const { error } = (await res.json()) as { error: { code: string; message: string } }
          expect(error.code, what).toBe('forbidden')
          expect(error.message).toBe(`Your role (${role}) cannot ${error.message.split(' cannot ')[1]}`)
          expect(await snapshot(t.deps.db, t.workspaceId), `${what}: the workspace changed`).toBe(before)
        }
      }
    }, 300_000)
  }

  it("answers 404 to a limited caller's review steps on a post outside its groups, and changes nothing", async () => {
    const t = await createTestApp()
    const brand = await groupWithAccounts(t, 'Brand', ['limited.brand'])
    const elsewhere = await account(t, 'MICROBLOG_NET', 'elsewhere')
    const inside = await postInReview(t, [brand.accounts[0]!.id], 'inside')
    const outside = await postInReview(t, [elsewhere.id], 'outside')
    const draft = await postInReview(t, [elsewhere.id], 'outside draft', false)
    const reviewer = await limitedToken(t, [brand.id], 'reviewer')
    const member = await limitedToken(t, [brand.id], 'member')
    const before = await snapshot(t.deps.db, t.workspaceId)
    const steps: Array<[string, string, unknown]> = [
      [reviewer, `/v1/posts/${outside.id}/approve`, {}],
      [reviewer, `/v1/posts/${outside.id}/request-changes`, { comment: 'No.' }],
      [member, `/v1/posts/${draft.id}/submit`, {}],
      [reviewer, `/v1/posts/${outside.id}/notes`, { body: 'a note' }],
    ]
    for (const [token, path, body] of steps) {
      const res = await t.call('POST', path, { token, body })
      expect(res.status, path).toBe(404)
      expect((await res.json()).error.code).toBe('not_found')
    }
    expect(await snapshot(t.deps.db, t.workspaceId)).toBe(before)
    const approved = await t.call('POST', `/v1/posts/${inside.id}/approve`, { token: reviewer, body: {} })
    expect(approved.status).toBe(200)
  })
})
