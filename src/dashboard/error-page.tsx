import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { errorResponse, prepareErrorAnswer } from '../http/error-response'
import { statusOf } from '../http/errors'
import type { AppEnv } from '../http/context'
import { backLinks } from './pages'
import { ErrorView, waitInWords } from './ui/error-view'

const TITLES: Partial<Record<number, string>> = {
  400: 'Not accepted',
  401: 'Sign in again',
  403: 'Not allowed',
  404: 'Page not found',
  409: 'Changed meanwhile',
  413: 'Too large',
  429: 'Too many requests',
}

/** A page's script asking for JSON (the composer's live check) gets the API's error body, not a page. */
const wantsJson = (c: Context) => (c.req.header('accept') ?? '').includes('application/json')

/** What the page says for an error: the error's own words, or ours for a 429 and a 500 (whose message is generic). */
function explanation(status: number, message: string, wait: number | undefined) {
  if (status === 429)
    return (
      <>
        <p role="alert">You sent more requests than we take in a short time, so we paused yours.</p>
        <p>
          Try again in <strong>{waitInWords(wait ?? 60)}</strong>. Nothing you sent during the pause was saved.
        </p>
      </>
    )
  if (status >= 500)
    return (
      <>
        <p role="alert">Something went wrong on our side, not yours. Nothing is lost that was saved before.</p>
        <p>Try again in a moment; if it keeps happening, write to us with the request id below.</p>
      </>
    )
  return (
    <>
      <p role="alert">{message}</p>
      {wait !== undefined ? <p>Try again in {waitInWords(wait)}.</p> : null}
    </>
  )
}

/**
 * Anything a dashboard page throws, as an HTML page: the error's own words, the wait before trying
 * again where there is one (also in Retry-After), and the request id that finds it in our logs. An
 * unexpected error is logged, never shown: its page says only that it was on our side.
 */
export function dashboardErrorPage(c: Context<AppEnv>, err: unknown): Response | Promise<Response> {
  if (wantsJson(c)) return errorResponse(c, err)
  const { appError, requestId } = prepareErrorAnswer(c, err)
  const status = statusOf(appError) as ContentfulStatusCode
  return c.html(
    <ErrorView
      status={status}
      title={TITLES[status] ?? 'Something went wrong'}
      requestId={requestId}
      links={status === 429 || status >= 500 ? [['Back to the dashboard', '/app']] : backLinks(c)}
    >
      {explanation(status, appError.message, appError.retryAfterSec)}
    </ErrorView>,
    status,
  )
}
