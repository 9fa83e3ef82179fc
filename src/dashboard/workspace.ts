/**
 * The middleware in front of every page of a workspace (`/app/w/{workspaceId}/...`): a session or the
 * sign-in page, membership of that workspace or 404 (never 403: another workspace's pages do not
 * exist for this user), the member and the CSRF token for the pages, and the CSRF check of every
 * state-changing request.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { can, forbiddenMessage, type Permission } from '../domain/access'
import { canManage } from '../domain/people'
import { getMembership, listMemberGroupIds, listUserWorkspaces } from '../services/people/memberships'
import { rememberWorkspace, resolveSession } from '../services/people/sessions'
import type { DashboardEnv } from './env'
import { unreadCount } from './pages/inbox/data'
import { countUnreadNotificationsOf } from '../services/notifications/inbox'
import { forbiddenPage, notFoundPage } from './pages'
import { clearSessionCookie, csrfMatches, sameOrigin, sessionToken, submittedCsrf } from './session'

const SAFE_METHODS = new Set(['GET', 'HEAD'])

/** Resolves session and membership for the workspace in the path, and checks CSRF on writes. */
export const workspaceMember = (): MiddlewareHandler<DashboardEnv> => async (c, next) => {
  const { db, clock, settings } = c.var.deps
  const token = sessionToken(c)
  const session = token ? await resolveSession(db, token, clock.now()) : null
  if (!session) {
    if (token) clearSessionCookie(c)
    const url = new URL(c.req.url)
    return c.redirect(`/app/sign-in?next=${encodeURIComponent(url.pathname)}`, 303)
  }
  const workspaceId = c.req.param('workspaceId') ?? ''
  const membership = await getMembership(db, workspaceId, session.userId)
  if (!membership) return notFoundPage(c)
  if (!SAFE_METHODS.has(c.req.method)) {
    if (!sameOrigin(c, settings.publicUrl) || !csrfMatches(session.csrfToken, await submittedCsrf(c)))
      return forbiddenPage(c, 'This form expired or did not come from this site. Reload the page and try again.')
  }
  // The groups first: a member limited to some counts only their groups' unread comments.
  const groupIds = await listMemberGroupIds(db, membership, session.userId)
  const [workspaces, unreadInbox, unreadNotifications] = await Promise.all([
    listUserWorkspaces(db, session.userId),
    unreadCount({ db }, membership.workspaceId, groupIds),
    countUnreadNotificationsOf({ db }, session.userId, membership.workspaceId),
  ])
  c.set('member', {
    userId: session.userId,
    email: session.email,
    name: session.name,
    workspaceId: membership.workspaceId,
    workspaceName: membership.workspaceName,
    timeZone: membership.timeZone,
    role: membership.role,
    groupIds,
    workspaces: workspaces.map((w) => ({ workspaceId: w.workspaceId, name: w.name })),
    unreadInbox,
    unreadNotifications,
  })
  c.set('csrfToken', session.csrfToken)
  if (session.lastWorkspaceId !== workspaceId) await rememberWorkspace(db, session.sessionId, workspaceId)
  await next()
}

/** Refuses (403 page) a member whose role does not manage the workspace; null when they may go on. */
export function refuseUnlessManager(c: Context<DashboardEnv>): Response | null {
  if (canManage(c.var.member.role)) return null
  return forbiddenPage(c, 'Only owners and admins of this workspace can do this.') as unknown as Response
}

/** Refuses (403 page) a member whose role lacks the permission; null when they may go on. */
export function requirePermission(c: Context<DashboardEnv>, permission: Permission): Response | null {
  const { role } = c.var.member
  if (can(role, permission)) return null
  return forbiddenPage(c, forbiddenMessage(role, permission)) as unknown as Response
}

/**
 * The same check in front of a page's handler (`app.post(path, permitted('write'), handler)`);
 * `permission` may depend on the request (an inbox action: reading or writing).
 */
export const permitted =
  (permission: Permission | ((c: Context<DashboardEnv>) => Permission)): MiddlewareHandler<DashboardEnv> =>
  async (c, next) => {
    const refused = requirePermission(c, typeof permission === 'function' ? permission(c) : permission)
    if (refused) return refused
    await next()
  }
