import type { Handler } from 'hono'
import type { AppEnv } from '../../http/context'
import { AppError } from '../../domain/errors'
import { sandboxPostThread } from '../../services/sandbox-posts'
import { renderSandboxPost } from './render'

/** Inline styles and http(s) media only: the page loads nothing else and runs no script. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; img-src http: https:; media-src http: https:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

/**
 * `GET /sandbox/posts/{id}`: the permalink page of a post of the simulated network. Public, like a
 * network's own site.
 */
export const postPage: Handler<AppEnv> = async (c) => {
  const thread = await sandboxPostThread(c.var.deps, c.req.param('id') ?? '')
  if (!thread) throw new AppError('not_found', 'The sandbox network has no post with this id.')
  c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
  c.header('X-Content-Type-Options', 'nosniff')
  return c.html(renderSandboxPost(thread))
}
