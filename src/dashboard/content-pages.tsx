import type { Hono } from 'hono'
import type { DashboardEnv } from './env'
import { registerAccounts } from './pages/accounts'
import { registerAnalytics } from './pages/analytics'
import { registerCalendar } from './pages/calendar'
import { registerCanvases } from './pages/canvases'
import { registerComposer } from './pages/compose'
import { registerInbox } from './pages/inbox/routes'
import { registerMedia } from './pages/media'
import { registerPostDetail } from './pages/post-detail'
import { registerPostReview } from './pages/post-review'
import { registerQueue } from './pages/queue'
import { registerReview } from './pages/review'

/**
 * The workspace's working pages (calendar, composer, post detail, accounts, media, queue slots,
 * analytics, inbox), registered on the dashboard app behind sign-in and membership.
 */
export function registerContentPages(app: Hono<DashboardEnv>): void {
  registerCalendar(app)
  registerComposer(app)
  registerPostDetail(app)
  registerPostReview(app)
  registerReview(app)
  registerMedia(app)
  registerCanvases(app)
  registerAccounts(app)
  registerQueue(app)
  registerAnalytics(app)
  registerInbox(app)
}
