/**
 * The web dashboard under `/app`: public pages (sign-in, sign-up, sign-out, invitations, assets), and the
 * workspace sub-app at `/app/w/{workspaceId}` behind session, membership and CSRF checks, where the
 * working pages (`registerContentPages`) and the settings pages are registered. Every answer carries
 * a strict Content-Security-Policy. Rendered on the server with hono/jsx: the same on Workers and Node.
 */
import { type Context, Hono } from 'hono'
import { etag } from 'hono/etag'
import type { AppEnv } from '../http/context'
import { guardInput } from '../http/input-guard'
import { listUserWorkspaces } from '../services/people/memberships'
import { resolveSession } from '../services/people/sessions'
import { APP_ASSETS } from './assets/app-assets'
import { CLIENT_ASSETS } from './assets/client-assets'
import { CONTENT_ASSETS, type DashboardAsset } from './assets/content-assets'
import { registerAgentConsent } from './agent-consent'
import { registerAuthPages } from './auth'
import { dashboardErrorPage } from './error-page'
import { registerContentPages } from './content-pages'
import type { DashboardEnv } from './env'
import { registerInvitationPages } from './invitation-pages'
import { notFoundPage, PublicPage, refusedInputPage } from './pages'
import { contentSecurityPolicy, securityHeaders, sessionToken } from './session'
import { registerSettingsPages } from './settings'
import { registerNotificationPages } from './pages/notifications'
import { registerThemeRoute, themeAttribute } from './theme'
import { workspaceMember } from './workspace'

/**
 * The policy with the media store's origins: where its public URLs point (thumbnails) and where its
 * presigned uploads go (the upload script's PUT). Worked out once per set of deps.
 */
function storagePolicy() {
  const byStorage = new WeakMap<object, Promise<string>>()
  const origin = (url: string) => new URL(url).origin
  return (c: Context<AppEnv>): Promise<string> => {
    const { storage } = c.var.deps
    let policy = byStorage.get(storage)
    if (!policy) {
      policy = storage
        .presignPut({ key: 'policy-probe', contentType: 'application/octet-stream', expiresInSec: 60 })
        .then((put) =>
          contentSecurityPolicy({ images: [origin(storage.publicUrl('policy-probe'))], connect: [origin(put.url)] }),
        )
      byStorage.set(storage, policy)
    }
    return policy
  }
}

/** A dashboard asset by file name: the frame's, the working pages' styles, the page scripts. */
function findAsset(name: string): DashboardAsset | undefined {
  for (const assets of [APP_ASSETS, CONTENT_ASSETS, CLIENT_ASSETS]) if (Object.hasOwn(assets, name)) return assets[name]
  return undefined
}

/** The dashboard app, mounted by `createApp` at `/app`. */
export function createDashboard(): Hono<AppEnv> {
  const app = new Hono<AppEnv>()
  app.use('*', securityHeaders(storagePolicy()))
  app.use('*', themeAttribute)
  // Before any form is read (the CSRF check reads the token from it): text the database cannot store and
  // a body that cannot be parsed are refused here, for every page and form, as a page.
  app.use('*', guardInput({ notFound: notFoundPage, refuse: refusedInputPage }))

  // An ETag on every asset (a revalidation costs a 304); a hashed name is cached for good.
  app.get('/assets/:name', etag(), (c) => {
    const asset = findAsset(c.req.param('name'))
    if (!asset) return notFoundPage(c)
    c.header('Cache-Control', asset.immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
    return c.body(asset.body, 200, { 'Content-Type': asset.contentType })
  })

  registerAuthPages(app)
  registerThemeRoute(app)
  registerAgentConsent(app)
  registerInvitationPages(app)

  // /app: the workspace the session last opened, else the user's first; the sign-in page without a session.
  app.get('/', async (c) => {
    const { db, clock } = c.var.deps
    const token = sessionToken(c)
    const session = token ? await resolveSession(db, token, clock.now()) : null
    if (!session) return c.redirect('/app/sign-in', 303)
    const workspaces = await listUserWorkspaces(db, session.userId)
    const target = workspaces.find((w) => w.workspaceId === session.lastWorkspaceId) ?? workspaces[0]
    if (target) return c.redirect(`/app/w/${target.workspaceId}`, 303)
    return c.html(
      <PublicPage title="No workspace">
        <p>You are not a member of any workspace. Ask an owner for an invitation link.</p>
      </PublicPage>,
    )
  })

  const workspace = new Hono<DashboardEnv>()
  workspace.use('*', workspaceMember())
  registerSettingsPages(workspace)
  registerNotificationPages(workspace)
  registerContentPages(workspace)
  // The workspace's home is the working pages' (the calendar); without them, its settings.
  workspace.get('/', (c) => c.redirect(`/app/w/${c.var.member.workspaceId}/settings`, 303))
  app.route('/w/:workspaceId', workspace as unknown as Hono<AppEnv>)

  app.all('*', (c) => notFoundPage(c))
  // What a page throws is a page too (with the request id), not the API's JSON body.
  app.onError((err, c) => dashboardErrorPage(c, err))
  return app
}
