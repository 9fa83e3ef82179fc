import { CONTENT_STYLE } from './content-style'

/** A static file of the dashboard, served from `/app/assets/{name}`. */
export interface DashboardAsset {
  contentType: string
  body: string
  /** Named by a hash of its content (a new version has a new name): cached for good. */
  immutable?: boolean
}

/** The working pages' styles (their scripts are CLIENT_ASSETS, bundled from src/dashboard/client/). */
export const CONTENT_ASSETS: Record<string, DashboardAsset> = {
  'content.css': { contentType: 'text/css; charset=utf-8', body: CONTENT_STYLE },
}
