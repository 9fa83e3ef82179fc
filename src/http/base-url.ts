import type { Context } from 'hono'
import type { AppEnv } from './context'

/** Where users reach this service: `PUBLIC_URL`, else the origin the request came to; no trailing slash. */
export const baseUrlOf = (c: Context<AppEnv>): string =>
  (c.var.deps.settings.publicUrl ?? new URL(c.req.url).origin).replace(/\/+$/, '')
