/**
 * The role matrix of the dashboard: every workspace page and action the app registers (read from the
 * app's routes, never a hand list; the table below says what each needs and fails on a route it does
 * not know), visited by a reviewer, a member and a member limited to one account group, signed in
 * through the real form, in a workspace seeded as for the every-page tests (support/every-page.ts).
 * A page the role may not use is the 403 page; a post, account or comment outside the member's groups
 * is 404; the rest is 200. Every refused action (403 or 404) leaves the workspace as it was.
 */
import { describe, expect, it } from 'vitest'
import type { Permission } from '../../src/domain/access'
import { can } from '../../src/domain/access'
import type { MemberRole } from '../../src/domain/people'
import { setMemberGroups } from '../../src/services/people/memberships'
import { snapshot } from '../reliability/support/fuzz-workspace'
import { signInMember } from '../support/dashboard'
import { seedWorkspace } from '../support/every-page'
import { groupWithAccounts, postInReview } from '../support/review-links'
import { createTestApp, randomIp } from '../support/test-app'

/** What a route needs: a permission, or `staff` (any role but reviewer: settings pages a member reads). */
type Need = Permission | 'staff'

const NEEDS: Record<string, Need> = {
  'GET ': 'read',
  'GET /calendar': 'read',
  'GET /compose': 'write',
  'GET /posts/:postId/edit': 'write',
  'GET /posts/:postId': 'read',
  'GET /review': 'read',
  'GET /media': 'read',
  'GET /media/:mediaId/canvases': 'write',
  'GET /accounts': 'read',
  'GET /accounts/:accountId/disconnect': 'connect',
  'GET /queue': 'read',
  'GET /analytics': 'read',
  'GET /analytics.csv': 'read',
  'GET /inbox': 'read',
  'GET /inbox/:commentId': 'read',
  'GET /notifications': 'read',
  'GET /settings/notifications': 'read',
  'GET /settings': 'staff',
  'GET /settings/members': 'staff',
  'GET /settings/groups': 'staff',
  'GET /settings/groups/new': 'manage',
  'GET /settings/groups/:groupId': 'manage',
  'GET /settings/labels': 'staff',
  'GET /settings/tokens': 'staff',
  'GET /settings/webhooks': 'staff',
  'GET /settings/review-links': 'read',
  'GET /settings/activity': 'manage',
  'GET /settings/activity.csv': 'manage',
  'POST /settings': 'manage',
  'POST /settings/approval': 'manage',
  'POST /settings/invitations': 'manage',
  'POST /settings/invitations/:invitationId/revoke': 'manage',
  'POST /settings/members/:userId/role': 'manage',
  'POST /settings/members/:userId/groups': 'manage',
  'POST /settings/members/:userId/remove': 'manage',
  'POST /settings/groups': 'manage',
  'POST /settings/groups/:groupId': 'manage',
  'POST /settings/groups/:groupId/delete': 'manage',
  'POST /settings/labels': 'write',
  'POST /settings/labels/:labelId': 'write',
  'POST /settings/labels/:labelId/delete': 'write',
  'POST /settings/tokens': 'manage',
  'POST /settings/tokens/:tokenId/revoke': 'manage',
  'POST /settings/webhooks': 'manage',
  'POST /settings/webhooks/:endpointId/delete': 'manage',
  'POST /settings/webhooks/:endpointId/replay/:eventId': 'manage',
  'POST /settings/review-links': 'manage',
  'POST /settings/review-links/:linkId/revoke': 'manage',
  'POST /notifications/read-all': 'read',
  'POST /notifications/:id/read': 'read',
  'POST /settings/notifications': 'read',
  'POST /posts/:postId/reschedule': 'publish',
  'POST /calendar/posts/:postId/retry': 'publish',
  'POST /compose/autosave': 'write',
  'POST /posts/:postId/autosave': 'write',
  'POST /compose': 'write',
  'POST /posts/:postId/edit': 'write',
  'POST /compose/check': 'write',
  'POST /posts/:postId/retry': 'publish',
  'POST /posts/:postId/publish': 'publish',
  'POST /posts/:postId/delete': 'write',
  'POST /posts/:postId/submit': 'write',
  'POST /posts/:postId/approve': 'review',
  'POST /posts/:postId/request-changes': 'review',
  'POST /posts/:postId/notes': 'comment',
  'POST /posts/:postId/notes/:noteId/delete': 'comment',
  'POST /media/:mediaId/edit': 'write',
  'POST /media/uploads': 'write',
  'POST /media/register': 'write',
  'POST /media/:mediaId/canvases': 'write',
  'POST /accounts/connect': 'connect',
  'POST /accounts/:accountId/reconnect': 'connect',
  'POST /accounts/:accountId/disconnect': 'connect',
  'POST /queue': 'publish',
  'POST /inbox/:commentId/:action': 'write',
}

const allowed = (role: MemberRole, need: Need) => (need === 'staff' ? role !== 'reviewer' : can(role, need))

/** The workspace routes of the dashboard, as `METHOD /rest` under `/app/w/:workspaceId`. */
function dashboardRoutes(app: { routes: Array<{ method: string; path: string }> }): string[] {
  const prefix = '/app/w/:workspaceId'
  const keys = app.routes
    .filter((r) => r.path.startsWith(prefix) && (r.method === 'GET' || r.method === 'POST'))
    .map((r) => `${r.method} ${r.path.slice(prefix.length)}`)
  return [...new Set(keys)]
}

describe('the role matrix of the dashboard', () => {
  it('answers each role by what each page and action needs, and a limited member 404 outside its group', async () => {
    const t = await createTestApp({ plan: 'agency' })
    const s = await seedWorkspace(t, 'http://localhost')
    const brand = await groupWithAccounts(t, 'Brand', ['brand.account'])
    const own = (await postInReview(t, [brand.accounts[0]!.id], 'the brand post')).id as string
    const routes = dashboardRoutes(t.app as never)
    expect(routes.filter((r) => !(r in NEEDS))).toEqual([])

    const otherPosts = Object.values(s.posts)
    /** The values a parameter takes: the first visible to the limited member, the others outside its group. */
    const values: Record<string, { inside: string[]; outside: string[] }> = {
      postId: { inside: [own], outside: otherPosts },
      accountId: { inside: [brand.accounts[0]!.id], outside: [s.accountId] },
      commentId: { inside: [], outside: [s.commentId] },
      mediaId: { inside: [s.mediaId], outside: [] },
      groupId: { inside: [brand.id], outside: [] },
    }
    const visitors: Array<{ name: string; role: MemberRole; limited: boolean }> = [
      { name: 'reviewer', role: 'reviewer', limited: false },
      { name: 'member', role: 'member', limited: false },
      { name: 'limited member', role: 'member', limited: true },
    ]
    const counts = { pages: 0, actions: 0, refused: 0 }
    const wrong: string[] = []
    for (const v of visitors) {
      const session = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: v.role })
      if (v.limited) await setMemberGroups(t.deps.db, t.workspaceId, session.userId, [brand.id])
      const send = (method: string, path: string) =>
        t.app.request(`/app/w/${t.workspaceId}${path}`, {
          method,
          headers: {
            cookie: session.cookie,
            'x-forwarded-for': randomIp(),
            ...(method === 'POST'
              ? { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' }
              : {}),
          },
          ...(method === 'POST' ? { body: new URLSearchParams({ _csrf: session.csrfToken }).toString() } : {}),
        })
      for (const key of routes) {
        const [method, rest] = key.split(' ') as [string, string]
        const need = NEEDS[key]!
        const params = [...rest.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!)
        // Each case: the path filled with one value per parameter, and whether it is outside the member's groups.
        const scoped = params.find((p) => values[p])
        const cases: Array<{ path: string; outside: boolean }> = []
        const fill = (value: string | null) => rest.replace(/:([A-Za-z]+)/g, (_, p) => (p === scoped ? value! : 'x1'))
        if (!scoped) cases.push({ path: fill(null), outside: false })
        else {
          for (const x of values[scoped]!.inside) cases.push({ path: fill(x), outside: false })
          for (const x of values[scoped]!.outside) cases.push({ path: fill(x), outside: true })
        }
        for (const c of cases) {
          const what = `${v.name} ${method} ${c.path} (${need})`
          const refusedByRole = !allowed(v.role, need)
          const hidden = v.limited && c.outside
          // An action the role may use is tested by its own page tests (it would change the seeded workspace).
          if (method === 'POST' && !refusedByRole && !hidden) continue
          const before = method === 'POST' ? await snapshot(t.deps.db, t.workspaceId) : null
          const res = await send(method, c.path)
          const body = await res.text()
          const expected = refusedByRole ? 403 : hidden ? 404 : 200
          const fine =
            res.status === expected || (expected === 200 && params.length > 0 && !scoped && res.status < 500) || false
          if (!fine || (refusedByRole && !body.includes('Not allowed')))
            wrong.push(`${what}: ${res.status}, not ${expected}: ${body.replace(/\s+/g, ' ').slice(0, 120)}`)
          if (before !== null && (await snapshot(t.deps.db, t.workspaceId)) !== before) wrong.push(`${what}: changed`)
          if (refusedByRole || hidden) counts.refused++
          counts[method === 'GET' ? 'pages' : 'actions']++
        }
      }
    }
    expect(wrong).toEqual([])
    console.log(
      `dashboard role matrix: ${routes.length} routes x 3 visitors = ${counts.pages} page visits, ` +
        `${counts.actions} refused actions; ${counts.refused} refusals (403 or 404)`,
    )
  }, 300_000)
})
