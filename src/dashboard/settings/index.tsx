/** The settings pages of a workspace (`/app/w/{id}/settings/...`): members may look, owners and admins manage. */
import type { Hono } from 'hono'
import type { DashboardEnv } from '../env'
import { registerActivityPages } from './activity'
import { registerGroupPages } from './groups'
import { registerLabelPages } from './labels'
import { registerMemberPages } from './members'
import { registerReviewLinkPages } from './review-links'
import { registerTokenPages } from './tokens'
import { registerWebhookPages } from './webhooks'
import { registerWorkspaceSettings } from './workspace'

/** Registers the settings pages on the workspace sub-app, and the workspace's home when no page took it. */
export function registerSettingsPages(app: Hono<DashboardEnv>): void {
  registerWorkspaceSettings(app)
  registerMemberPages(app)
  registerGroupPages(app)
  registerLabelPages(app)
  registerTokenPages(app)
  registerWebhookPages(app)
  registerActivityPages(app)
  registerReviewLinkPages(app)
}
