import { Hono } from 'hono'
import type { AppEnv } from '../../http/context'
import { bodyLimit } from 'hono/body-limit'
import { sandboxConsent, sandboxDecision } from './consent'
import { postPage } from './post-page'

/**
 * The simulated network's own website, mounted at `/sandbox` outside `/v1`: public pages, no
 * token, not part of the API's OpenAPI description; and its consent page for hosted connect.
 */
export function sandboxSite(): Hono<AppEnv> {
  const site = new Hono<AppEnv>()
  site.get('/posts/:id', postPage)
  site.get('/oauth/authorize', sandboxConsent)
  site.post('/oauth/authorize', bodyLimit({ maxSize: 16 * 1024 }), sandboxDecision)
  return site
}
