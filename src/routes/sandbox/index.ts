import { Hono } from 'hono'
import type { AppEnv } from '../../http/context'
import { postPage } from './post-page'

/**
 * The simulated network's own website, mounted at `/sandbox` outside `/v1`: public pages, no
 * token, not part of the API's OpenAPI description.
 */
export function sandboxSite(): Hono<AppEnv> {
  const site = new Hono<AppEnv>()
  site.get('/posts/:id', postPage)
  return site
}
