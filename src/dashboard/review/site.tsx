/**
 * `/review/{token}`: a client review link's pages, outside `/app` and `/v1`, with no session. Every
 * request is counted against the `reviewLink` rate limit (per client IP) and its input guarded
 * before the token is read; every answer has a strict policy, no referrer, no index, no framing,
 * no caching. A form is taken only from our own origin with the form token of its cookie (double
 * submit); the visitor's name is kept in a cookie scoped to the link's own path.
 */
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../http/context'
import { prepareErrorAnswer } from '../../http/error-response'
import { statusOf } from '../../http/errors'
import { describeProblem, guardInput } from '../../http/input-guard'
import { type ReviewLinkVisit, listReviewPosts, openReviewLink, recordVisitor } from '../../services/review-links/visit'
import { checkVisitorName } from '../../domain/review-links'
import { contentSecurityPolicy } from '../session'
import { formTokenFor, formTokenMatches, sameSiteForm, setVisitorName, visitorNameOf } from './cookies'
import { decide } from './decide'
import { ErrorPage, NamePage, ProblemPage, RateLimitedPage, RefusedPage, ReviewPage } from './view'

type ReviewContext = Context<AppEnv>

/** The base path of a link's pages. */
export const reviewBase = (token: string) => `/review/${token}`

/** The review pages' headers: our policy with the media store's images, and nothing leaves through the referrer. */
async function reviewHeaders(c: ReviewContext, next: () => Promise<void>) {
  await next()
  const { storage } = c.var.deps
  c.res.headers.set(
    'Content-Security-Policy',
    contentSecurityPolicy({ images: [new URL(storage.publicUrl('policy-probe')).origin] }),
  )
  c.res.headers.set('Referrer-Policy', 'no-referrer')
  c.res.headers.set('X-Robots-Tag', 'noindex, nofollow')
  c.res.headers.set('X-Content-Type-Options', 'nosniff')
  c.res.headers.set('X-Frame-Options', 'DENY')
  c.res.headers.set('Cache-Control', 'no-store')
}

/** Counts the request against the `reviewLink` bucket; past it, the page that says how long to wait. */
async function reviewRateLimit(c: ReviewContext, next: () => Promise<void>) {
  const { rateLimiter, clock } = c.var.deps
  const decision = await rateLimiter.check('reviewLink', c.var.clientIp)
  if (decision.allowed) return next()
  const waitSec = Math.max(1, Math.ceil((decision.resetAt - clock.now().getTime()) / 1000) + 1)
  c.header('Retry-After', String(waitSec))
  return c.html(<RateLimitedPage waitSec={waitSec} />, decision.unavailable ? 503 : 429)
}

const problemAnswer = (c: ReviewContext, visit: Exclude<ReviewLinkVisit, { state: 'active' }>) =>
  c.html(<ProblemPage state={visit.state} />, visit.state === 'not_found' ? 404 : 410)

/** The link's page: the name form first, then the posts. */
async function showPage(c: ReviewContext) {
  const token = c.req.param('token') ?? ''
  const visit = await openReviewLink(c.var.deps, token)
  if (visit.state !== 'active') return problemAnswer(c, visit)
  const base = reviewBase(token)
  const csrf = formTokenFor(c, base)
  const visitorName = visitorNameOf(c)
  if (!visitorName) return c.html(<NamePage link={visit.link} base={base} csrf={csrf} />)
  const posts = await listReviewPosts(c.var.deps, visit.link)
  const notice = NOTICES[c.req.query('done') ?? '']
  return c.html(
    <ReviewPage link={visit.link} visitorName={visitorName} posts={posts} base={base} csrf={csrf} notice={notice} />,
  )
}

const NOTICES: Record<string, string> = {
  approved: 'Approved. The team sees your approval now.',
  changes: 'Sent. The team sees what you asked to change.',
}

/** The name form: kept in the link's cookie, noted in the activity log. */
async function giveName(c: ReviewContext) {
  const token = c.req.param('token') ?? ''
  const visit = await openReviewLink(c.var.deps, token)
  if (visit.state !== 'active') return problemAnswer(c, visit)
  const base = reviewBase(token)
  const fields = await c.req.parseBody()
  if (!sameSiteForm(c) || !formTokenMatches(c, fields._csrf))
    return c.html(
      <RefusedPage reason="This form expired or came from another site; reload the page." back={base} />,
      403,
    )
  const raw = typeof fields.name === 'string' ? fields.name : ''
  const checked = checkVisitorName(raw)
  if ('problem' in checked)
    return c.html(
      <NamePage link={visit.link} base={base} csrf={formTokenFor(c, base)} error={checked.problem} value={raw} />,
      400,
    )
  setVisitorName(c, base, checked.name, visit.link.expiresAt)
  await recordVisitor(c.var.deps, visit.link, checked.name, c.var.clientIp)
  return c.redirect(base, 303)
}

/** What a review page throws, as a page: the request id, never the error itself (prepareErrorAnswer logs it). */
export function reviewErrorPage(err: unknown, c: ReviewContext) {
  const { appError, requestId } = prepareErrorAnswer(c, err)
  const status = statusOf(appError) as ContentfulStatusCode
  return c.html(<ErrorPage status={status} message={appError.message} requestId={requestId} />, status)
}

/** The review site, mounted by `createApp` at `/review`. */
export function createReviewSite(): Hono<AppEnv> {
  const site = new Hono<AppEnv>()
  site.use('*', reviewHeaders)
  site.use('*', reviewRateLimit)
  site.use(
    '*',
    guardInput({
      notFound: (c) => c.html(<ProblemPage state="not_found" />, 404),
      refuse: (c, problem) => c.html(<RefusedPage reason={describeProblem(problem)} back="." />, 400),
    }),
  )
  site.get('/:token', showPage)
  site.post('/:token/name', bodyLimit({ maxSize: 16 * 1024 }), giveName)
  site.post('/:token/posts/:postId/:decision{approve|request-changes}', bodyLimit({ maxSize: 64 * 1024 }), decide)
  site.all('*', (c) => c.html(<ProblemPage state="not_found" />, 404))
  site.onError(reviewErrorPage)
  return site
}
