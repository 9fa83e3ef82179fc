/** A static file of the dashboard, served from `/app/assets/{name}`. */
export interface DashboardAsset {
  contentType: string
  body: string
}

/** The working pages' scripts and styles (no build step: the text is served as it is). */
export const CONTENT_ASSETS: Record<string, DashboardAsset> = {}
