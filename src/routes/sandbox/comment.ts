import type { Context, Handler } from 'hono'
import type { AppEnv } from '../../http/context'
import { AppError } from '../../domain/errors'
import { addVisitorComment, sandboxPostThread } from '../../services/sandbox-posts'
import { renderSandboxPost, type CommentForm } from './render'
import { sendPostPage } from './post-page'

/** A form sent from another site is refused, as the dashboard refuses one (defence for a page with no session). */
function fromAnotherSite(c: Context<AppEnv>): boolean {
  const origin = c.req.header('origin')
  if (origin === undefined || origin === 'null') return c.req.header('sec-fetch-site') === 'cross-site'
  const publicUrl = c.var.deps.settings.publicUrl
  return origin !== new URL(c.req.url).origin && (publicUrl === null || origin !== new URL(publicUrl).origin)
}

/** The post's page again, with why the comment was refused and what was written. */
async function refused(c: Context<AppEnv>, postId: string, form: CommentForm, status: 400 | 403 | 429) {
  const thread = await sandboxPostThread(c.var.deps, postId)
  if (!thread) throw new AppError('not_found', 'The sandbox network has no post with this id.')
  return sendPostPage(c, renderSandboxPost(thread, form), status)
}

/**
 * `POST /sandbox/posts/{id}/comments` (a form: `name`, `text`): a visitor's comment, as a network's
 * own site takes one. On success back to the post's comments (303); a refused comment shows the
 * page again with the reason and what was written.
 */
export const postComment: Handler<AppEnv> = async (c) => {
  const postId = c.req.param('id') ?? ''
  const body = await c.req.parseBody()
  const form: CommentForm = {
    name: typeof body.name === 'string' ? body.name : '',
    text: typeof body.text === 'string' ? body.text : '',
    error: null,
  }
  if (fromAnotherSite(c)) return refused(c, postId, { ...form, error: 'This form was sent from another site.' }, 403)
  try {
    await addVisitorComment(c.var.deps, { postId, name: form.name, text: form.text, clientKey: c.var.clientIp })
  } catch (err) {
    if (!(err instanceof AppError) || (err.code !== 'invalid_request' && err.code !== 'rate_limited')) throw err
    if (err.retryAfterSec !== undefined) c.header('Retry-After', String(err.retryAfterSec))
    return refused(c, postId, { ...form, error: err.message }, err.code === 'rate_limited' ? 429 : 400)
  }
  return c.redirect(`/sandbox/posts/${encodeURIComponent(postId)}#comments`, 303)
}
