import { Hono } from 'hono'
import type { AppEnv } from '../../http/context'
import { bodyLimit } from 'hono/body-limit'
import { AppError } from '../../domain/errors'
import { describeProblem, guardInput } from '../../http/input-guard'
import { refusedPage, sendPage } from '../connect/render'
import { sandboxConsent, sandboxDecision } from './consent'
import { postComment } from './comment'
import { postPage } from './post-page'

/**
 * The simulated network's own website, mounted at `/sandbox` outside `/v1`: public pages, no
 * token, not part of the API's OpenAPI description; and its consent page for hosted connect.
 */
export function sandboxSite(): Hono<AppEnv> {
  const site = new Hono<AppEnv>()
  site.use(
    '*',
    guardInput({
      // As an unknown id: no post of the network has such an id.
      notFound: () => {
        throw new AppError('not_found', 'The sandbox network has no post with this id.')
      },
      refuse: (c, problem) => sendPage(c, 400, 'Sandbox sign-in', refusedPage(describeProblem(problem))),
    }),
  )
  site.get('/posts/:id', postPage)
  site.post('/posts/:id/comments', bodyLimit({ maxSize: 64 * 1024 }), postComment)
  site.get('/oauth/authorize', sandboxConsent)
  site.post('/oauth/authorize', bodyLimit({ maxSize: 16 * 1024 }), sandboxDecision)
  return site
}
