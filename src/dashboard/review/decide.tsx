/**
 * `POST /review/{token}/posts/{postId}/approve | request-changes`: a visitor's decision on a post in
 * review, taken through the approvals service as the visitor. A post changed since the page was
 * shown (its version) is not decided: the page says so and shows the post as it is now.
 */
import type { Context } from 'hono'
import { AppError } from '../../domain/errors'
import { REVIEW_COMMENT_MAX } from '../../domain/review-links'
import type { AppEnv } from '../../http/context'
import {
  decideReviewPost,
  listReviewPosts,
  type OpenReviewLink,
  openReviewLink,
  type ReviewDecision,
} from '../../services/review-links/visit'
import { formTokenFor, formTokenMatches, sameSiteForm, visitorNameOf } from './cookies'
import { type PostProblem, ProblemPage, RefusedPage, ReviewPage } from './view'

type ReviewContext = Context<AppEnv>

/** The decision the form asks for, or the problem with it. */
function readDecision(kind: string, fields: Record<string, unknown>): ReviewDecision | { problem: string } {
  const version = Number(typeof fields.version === 'string' ? fields.version : Number.NaN)
  if (!Number.isInteger(version) || version < 1) return { problem: 'This form is out of date; reload the page.' }
  const comment = typeof fields.comment === 'string' ? fields.comment.trim() : ''
  if ([...comment].length > REVIEW_COMMENT_MAX)
    return { problem: `The comment is ${[...comment].length} characters; at most ${REVIEW_COMMENT_MAX}.` }
  if (kind === 'approve') return { kind: 'approve', version, comment: comment || undefined }
  if (comment === '') return { problem: 'Write what should change, so the team knows what to do.' }
  return { kind: 'request_changes', version, comment }
}

/** The status and the sentence of a refused decision the visitor can act on; null for anything else. */
function refusalOf(err: unknown): { status: 400 | 404 | 409; message: string } | null {
  if (!(err instanceof AppError)) return null
  if (err.code === 'post_changed')
    return {
      status: 409,
      message: `This post changed since you opened the page (${err.message}) Here it is as it is now: review it again.`,
    }
  if (err.code === 'invalid_transition') return { status: 409, message: err.message }
  if (err.code === 'not_found') return { status: 404, message: 'This post is not among the posts of this link.' }
  if (err.code === 'invalid_request') return { status: 400, message: err.message }
  return null
}

async function pageWithProblem(
  c: ReviewContext,
  view: { link: OpenReviewLink; base: string; visitorName: string },
  problem: PostProblem,
  status: 400 | 404 | 409,
) {
  const posts = await listReviewPosts(c.var.deps, view.link)
  return c.html(
    <ReviewPage
      link={view.link}
      visitorName={view.visitorName}
      posts={posts}
      base={view.base}
      csrf={formTokenFor(c, view.base)}
      problem={problem}
    />,
    status,
  )
}

export async function decide(c: ReviewContext) {
  const token = c.req.param('token') ?? ''
  const postId = c.req.param('postId') ?? ''
  const visit = await openReviewLink(c.var.deps, token)
  if (visit.state !== 'active')
    return c.html(<ProblemPage state={visit.state} />, visit.state === 'not_found' ? 404 : 410)
  const base = `/review/${token}`
  const fields = await c.req.parseBody()
  if (!sameSiteForm(c) || !formTokenMatches(c, fields._csrf))
    return c.html(
      <RefusedPage reason="This form expired or came from another site; reload the page." back={base} />,
      403,
    )
  const visitorName = visitorNameOf(c)
  if (!visitorName) return c.redirect(base, 303)
  const view = { link: visit.link, base, visitorName }
  const comment = typeof fields.comment === 'string' ? fields.comment : ''
  const decision = readDecision(c.req.param('decision') === 'approve' ? 'approve' : 'request_changes', fields)
  if ('problem' in decision) return pageWithProblem(c, view, { postId, message: decision.problem, comment }, 400)
  try {
    await decideReviewPost(c.var.deps, { link: visit.link, visitorName, ip: c.var.clientIp }, postId, decision)
  } catch (err) {
    const refusal = refusalOf(err)
    if (!refusal) throw err
    return pageWithProblem(c, view, { postId, message: refusal.message, comment }, refusal.status)
  }
  return c.redirect(`${base}?done=${decision.kind === 'approve' ? 'approved' : 'changes'}#post-${postId}`, 303)
}
