/**
 * The pages of a client review link: the frame (no way into the dashboard from it), the name form,
 * the group's upcoming posts with their network previews and, on a post in review, the two decisions;
 * and the pages of a link that is unknown, expired or withdrawn, which show nothing else.
 */
import type { Child } from 'hono/jsx'
import { DECIDABLE_STATUS, REVIEW_COMMENT_MAX, VISITOR_NAME_MAX } from '../../domain/review-links'
import type { OpenReviewLink, ReviewPost } from '../../services/review-links/visit'
import { previewCard, previewPostOf } from '../client/composer/preview-tree'
import { HtmlDocument, PRODUCT_NAME } from '../layout'
import { valuesFromPost } from '../pages/compose-form'
import { toJsx } from '../pages/compose-previews'
import { zonedText } from '../pages/post-wording'
import { Button, Card, EmptyState, StatusBadge, Toast } from '../ui'
import { previewOn } from '../../domain/post-preview'

/** The document of every review page: our stylesheets, no index, no referrer, no link to the dashboard. */
export const ReviewDocument = (props: { title: string; children?: Child }) => (
  <HtmlDocument
    title={props.title}
    head={
      <>
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
      </>
    }
  >
    <header class="public-top">
      <span class="brand">{PRODUCT_NAME}</span>
    </header>
    <main id="main" class="review">
      {props.children}
    </main>
  </HtmlDocument>
)

const PROBLEMS: Record<'not_found' | 'expired' | 'revoked', [string, string]> = {
  not_found: ['Review link not found', 'This address is not a review link, or it was mistyped.'],
  expired: ['Review link expired', 'This review link has expired. Ask the team that sent it for a new one.'],
  revoked: [
    'Review link withdrawn',
    'This review link was withdrawn by the team that sent it. Ask them for a new one.',
  ],
}

/** A link that does not open: unknown (404), expired or withdrawn (410). Nothing of the workspace is shown. */
export function ProblemPage(props: { state: 'not_found' | 'expired' | 'revoked' }) {
  const [title, text] = PROBLEMS[props.state]
  return (
    <ReviewDocument title={title}>
      <div class="narrow">
        <h1>{title}</h1>
        <p role="alert">{text}</p>
      </div>
    </ReviewDocument>
  )
}

/** Too many requests from this address: the wait, nothing else. */
export const RateLimitedPage = (props: { waitSec: number }) => (
  <ReviewDocument title="Too many requests">
    <div class="narrow">
      <h1>Too many requests</h1>
      <p role="alert">
        This address sent more requests than a review link takes in a minute. Try again in {props.waitSec} seconds.
      </p>
    </div>
  </ReviewDocument>
)

/** Anything else a page threw: its words when they are for the visitor, and the request id. */
export const ErrorPage = (props: { status: number; message: string; requestId: string }) => (
  <ReviewDocument title="Something went wrong">
    <div class="narrow">
      <h1>Something went wrong</h1>
      <p role="alert">
        {props.status >= 500 ? 'Something went wrong on our side. Try again in a moment.' : props.message}
      </p>
      <p class="muted">
        Request id: <code>{props.requestId}</code>
      </p>
    </div>
  </ReviewDocument>
)

/** A form refused before it was read (another site, an expired form token, text we cannot store). */
export const RefusedPage = (props: { reason: string; back: string }) => (
  <ReviewDocument title="Not accepted">
    <div class="narrow">
      <h1>Not accepted</h1>
      <p role="alert">{props.reason}</p>
      <p>
        <a href={props.back}>Back to the posts</a>
      </p>
    </div>
  </ReviewDocument>
)

const Intro = ({ link }: { link: OpenReviewLink }) => (
  <>
    <h1>Posts for {link.groupName}</h1>
    <p class="muted">
      {link.workspaceName} asks you to review its upcoming posts for {link.groupName}. Times are in {link.timezone}.
      This link works until {zonedText(link.expiresAt.toISOString(), link.timezone)}.
    </p>
  </>
)

/** Before anything else: the visitor's name, which the team sees beside every decision. */
export function NamePage(props: { link: OpenReviewLink; base: string; csrf: string; error?: string; value?: string }) {
  return (
    <ReviewDocument title={`Posts for ${props.link.groupName}`}>
      <div class="narrow">
        <Intro link={props.link} />
        <form method="post" action={`${props.base}/name`}>
          <input type="hidden" name="_csrf" value={props.csrf} />
          <div class={props.error ? 'field has-error' : 'field'}>
            <label for="visitor-name">Your name</label>
            <p class="field-help" id="visitor-name-help">
              The team sees it beside what you approve or ask to change.
            </p>
            <input
              id="visitor-name"
              name="name"
              autocomplete="name"
              required
              maxlength={VISITOR_NAME_MAX}
              value={props.value ?? ''}
              aria-describedby={props.error ? 'visitor-name-help visitor-name-errors' : 'visitor-name-help'}
              aria-invalid={props.error ? 'true' : undefined}
            />
            {props.error ? (
              <ul class="field-errors" id="visitor-name-errors">
                <li>{props.error}</li>
              </ul>
            ) : null}
          </div>
          <Button>Show the posts</Button>
        </form>
      </div>
    </ReviewDocument>
  )
}

const STATUS_WORDS: Record<string, string> = {
  IN_REVIEW: 'Waiting for review',
  APPROVED: 'Approved',
  CHANGES_REQUESTED: 'Changes requested',
  SCHEDULED: 'Scheduled',
}

/** What the page says about one post after a refusal. */
export interface PostProblem {
  postId: string
  message: string
  comment?: string
}

function Decisions(props: { item: ReviewPost; base: string; csrf: string; problem: PostProblem | undefined }) {
  const { post } = props.item
  const action = `${props.base}/posts/${post.id}`
  const commentId = `comment-${post.id}`
  return (
    <div class="review-decisions">
      <form method="post" action={`${action}/approve`} class="inline">
        <input type="hidden" name="_csrf" value={props.csrf} />
        <input type="hidden" name="version" value={String(post.version)} />
        <Button aria-label={`Approve the post ${post.id}`}>Approve</Button>
      </form>
      <form method="post" action={`${action}/request-changes`}>
        <input type="hidden" name="_csrf" value={props.csrf} />
        <input type="hidden" name="version" value={String(post.version)} />
        <div class="field">
          <label for={commentId}>What should change?</label>
          <textarea id={commentId} name="comment" rows={3} maxlength={REVIEW_COMMENT_MAX} required>
            {props.problem?.comment ?? ''}
          </textarea>
        </div>
        <Button variant="secondary">Request changes</Button>
      </form>
    </div>
  )
}

/** When the post goes out: its time, or what the submitter asked for once it is approved. */
function whenItGoesOut(post: ReviewPost['post'], timezone: string): string {
  if (post.scheduledAt) return zonedText(post.scheduledAt, timezone)
  const intent = post.approval?.intent
  if (intent?.action === 'schedule' && intent.scheduledAt)
    return `${zonedText(intent.scheduledAt, timezone)}, once approved`
  if (intent?.action === 'queue') return 'The next free queue slot, once approved'
  if (intent?.action === 'now') return 'As soon as it is approved'
  return 'No time set yet'
}

function PostCard(props: {
  item: ReviewPost
  timezone: string
  base: string
  csrf: string
  problem: PostProblem | undefined
}) {
  const { post, accounts, media } = props.item
  const values = valuesFromPost(post, props.timezone)
  const preview = previewPostOf(values, new Map(media.map((m) => [m.id, m])))
  const { approval } = post
  return (
    <Card
      id={`post-${post.id}`}
      class="review-post"
      title={whenItGoesOut(post, props.timezone)}
      actions={<StatusBadge status={post.status}>{STATUS_WORDS[post.status] ?? post.status}</StatusBadge>}
    >
      {props.problem ? <Toast kind="error">{props.problem.message}</Toast> : null}
      {approval?.decidedBy && approval.comment ? (
        <p class="muted">
          {approval.state === 'APPROVED' ? 'Approved' : 'Changes asked'} by {approval.decidedBy.name}: “
          {approval.comment}”
        </p>
      ) : null}
      <div class="preview-list">
        {accounts.map((a) =>
          toJsx(previewCard({ id: a.id, username: a.username, platform: a.platform }, previewOn(a.platform, preview))),
        )}
      </div>
      {post.status === DECIDABLE_STATUS ? (
        <Decisions item={props.item} base={props.base} csrf={props.csrf} problem={props.problem} />
      ) : null}
    </Card>
  )
}

/** The group's upcoming posts, soonest first, with what the visitor did last. */
export function ReviewPage(props: {
  link: OpenReviewLink
  visitorName: string
  posts: ReviewPost[]
  base: string
  csrf: string
  notice?: string | undefined
  problem?: PostProblem | undefined
}) {
  return (
    <ReviewDocument title={`Posts for ${props.link.groupName}`}>
      <Intro link={props.link} />
      <p>
        Reviewing as <strong>{props.visitorName}</strong>.
      </p>
      {props.notice ? <Toast>{props.notice}</Toast> : null}
      {props.problem ? <Toast kind="error">{props.problem.message}</Toast> : null}
      {props.posts.length === 0 ? (
        <EmptyState title="Nothing to review">
          <p>There are no upcoming posts for {props.link.groupName} right now.</p>
        </EmptyState>
      ) : (
        props.posts.map((item) => (
          <PostCard
            item={item}
            timezone={props.link.timezone}
            base={props.base}
            csrf={props.csrf}
            problem={props.problem?.postId === item.post.id ? props.problem : undefined}
          />
        ))
      )}
    </ReviewDocument>
  )
}
