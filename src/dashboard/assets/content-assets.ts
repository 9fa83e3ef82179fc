import { CALENDAR_SCRIPT } from './calendar-script'
import { COMPOSER_SCRIPT } from './composer-script'
import { CONTENT_STYLE } from './content-style'
import { UPLOAD_SCRIPT } from './upload-script'

/** A static file of the dashboard, served from `/app/assets/{name}`. */
export interface DashboardAsset {
  contentType: string
  body: string
}

const script = (body: string): DashboardAsset => ({ contentType: 'text/javascript; charset=utf-8', body })

/** The working pages' scripts and styles (no build step: the text is served as it is). */
export const CONTENT_ASSETS: Record<string, DashboardAsset> = {
  'content.css': { contentType: 'text/css; charset=utf-8', body: CONTENT_STYLE },
  'composer.js': script(COMPOSER_SCRIPT),
  'upload.js': script(UPLOAD_SCRIPT),
  'calendar.js': script(CALENDAR_SCRIPT),
}
