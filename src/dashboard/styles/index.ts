import { ANALYTICS_CSS } from './analytics'
import { CALENDAR_CSS } from './calendar'
import { COMPONENTS_CSS } from './components'
import { COMPOSER_CSS } from './composer'
import { FIRST_RUN_CSS } from './first-run'
import { INBOX_CSS } from './inbox'
import { PAGES_CSS } from './pages'
import { POST_CSS } from './post'
import { SETTINGS_CSS } from './settings'
import { TOKENS_CSS } from './tokens'

/** Every dashboard page's stylesheet after the frame's base rules: tokens first, then components, then each page's. */
export const DESIGN_CSS = [
  TOKENS_CSS,
  COMPONENTS_CSS,
  COMPOSER_CSS,
  CALENDAR_CSS,
  POST_CSS,
  ANALYTICS_CSS,
  INBOX_CSS,
  PAGES_CSS,
  SETTINGS_CSS,
  FIRST_RUN_CSS,
].join('\n')
