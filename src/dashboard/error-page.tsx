import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { errorResponse, prepareErrorAnswer } from '../http/error-response'
import { statusOf } from '../http/errors'
import type { AppEnv } from '../http/context'
import { PublicPage } from './pages'

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

/**
 * Anything a dashboard page throws, as an HTML page: the error's own words, the wait before trying
 * again where there is one, and the request id that finds it in our logs. An unexpected error is
 * logged, never shown: its page says only that it was on our side.
 */
export function dashboardErrorPage(c: Context<AppEnv>, err: unknown): Response | Promise<Response> {
  if (wantsJson(c)) return errorResponse(c, err)
  const { appError, requestId } = prepareErrorAnswer(c, err)
  const status = statusOf(appError) as ContentfulStatusCode
  const wait = appError.retryAfterSec
  return c.html(
    <PublicPage title={TITLES[status] ?? 'Something went wrong'}>
      <p role="alert">{appError.message}</p>
      {wait !== undefined ? <p>Try again in {wait} seconds.</p> : null}
      <p>
        Request id: <code>{requestId}</code> (quote it if you write to us about this).
      </p>
      <p>
        <a href="/app">Back to the dashboard</a>
      </p>
    </PublicPage>,
    status,
  )
}
