import type { Context, Handler } from 'hono'
import type { AppEnv } from '../../http/context'
import { AppError } from '../../domain/errors'
import { sandboxPostThread } from '../../services/sandbox-posts'
import { renderSandboxPost, type Html } from './render'

/** Inline styles and http(s) media only: the page loads nothing else, runs no script, and its form posts here only. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; img-src http: https:; media-src http: https:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

/** A post's page under the site's policy. */
export function sendPostPage(c: Context<AppEnv>, page: Html, status: 200 | 400 | 403 | 429 = 200) {
  c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
  c.header('X-Content-Type-Options', 'nosniff')
  c.header('Cache-Control', 'no-store')
  return c.html(page, status)
}

/**
 * `GET /sandbox/posts/{id}`: the permalink page of a post of the simulated network. Public, like a
 * network's own site: the post, its thread, its comments and a form to add one.
 */
export const postPage: Handler<AppEnv> = async (c) => {
  const thread = await sandboxPostThread(c.var.deps, c.req.param('id') ?? '')
  if (!thread) throw new AppError('not_found', 'The sandbox network has no post with this id.')
  return sendPostPage(c, renderSandboxPost(thread))
}
