import type { Hono } from 'hono'
import type { DashboardEnv } from './env'

/**
 * The workspace's working pages (calendar, composer, post detail, accounts, media, queue slots,
 * analytics), registered on the dashboard app behind sign-in and membership.
 */
export function registerContentPages(_app: Hono<DashboardEnv>): void {}
