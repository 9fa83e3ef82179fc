/** What every working page uses: the CSRF field, the not-found answer, flash notices and error lists. */
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { AppError } from '../../domain/errors'
import { type DashboardEnv, type DashboardMember, workspacePage } from '../env'
import { Layout } from '../layout'
import { cookieIsSecure } from '../session'
import { StatusBadge as UiStatusBadge } from '../ui/badge'
import { ButtonLink } from '../ui/button'
import { PageHeader } from '../ui/card'
import { EmptyState } from '../ui/feedback'

/** A dashboard request's context. */
export type PageContext = Context<DashboardEnv>

/** The hidden CSRF field every state-changing form carries. */
export const CsrfField = ({ token }: { token: string }) => <input type="hidden" name="_csrf" value={token} />

/** Codes that mean "no such thing in this workspace": another workspace's ids look the same. */
const NOT_FOUND_CODES = new Set(['not_found', 'account_not_found', 'media_not_found'])

/** True when the service answered that the id is not in the member's workspace. */
export const isNotFound = (err: unknown): boolean => err instanceof AppError && NOT_FOUND_CODES.has(err.code)

/** The 404 page (the same for an unknown id and another workspace's id). */
export function notFoundPage(c: PageContext): Response | Promise<Response> {
  return c.html(
    <Layout title="Not found" member={c.get('member')} csrfToken={c.get('csrfToken')}>
      <PageHeader title="Not found" />
      <EmptyState
        title="Nothing here"
        action={<ButtonLink href={workspacePage(c.get('member'), '/calendar')}>Open the calendar</ButtonLink>}
      >
        There is nothing at this address in this workspace.
      </EmptyState>
    </Layout>,
    404,
  )
}

/** Runs a page; a not-found answer of a service becomes the 404 page, anything else goes on. */
export async function orNotFound(c: PageContext, page: () => Promise<Response>): Promise<Response> {
  try {
    return await page()
  } catch (err) {
    if (isNotFound(err)) return notFoundPage(c)
    throw err
  }
}

/** The message of a refusal a member can act on (an `AppError`), with its details; anything else is rethrown. */
export function refusalOf(err: unknown): { message: string; details: { path: string; message: string }[] } {
  if (!(err instanceof AppError)) throw err
  const details = (err.details ?? []).map((d) => ({ path: d.path, message: d.message ?? err.message }))
  return { message: err.message, details }
}

const FLASH_COOKIE = 'sps_flash'
interface Flash {
  notice?: string
  problem?: string
}

/**
 * The one-line notice or problem a redirect leaves for the page it lands on, carried in a short-lived
 * HttpOnly cookie (never in the address, so nobody can craft a link that makes the dashboard say their
 * words). Read once: the page that shows it clears it.
 */
export const Notice = ({ c }: { c: PageContext }) => {
  const raw = getCookie(c, FLASH_COOKIE)
  if (!raw) return null
  deleteCookie(c, FLASH_COOKIE, { path: '/app', secure: cookieIsSecure(c) })
  let flash: Flash = {}
  try {
    flash = JSON.parse(raw) as Flash
  } catch {
    return null
  }
  return (
    <>
      {typeof flash.notice === 'string' ? (
        <p class="notice" role="status">
          {flash.notice}
        </p>
      ) : null}
      {typeof flash.problem === 'string' ? (
        <p class="problem" role="alert">
          {flash.problem}
        </p>
      ) : null}
    </>
  )
}

/** A redirect to a page of the workspace with a notice or a problem to show there (see `Notice`). */
export function back(c: PageContext, url: string, say: Flash = {}): Response {
  if (say.notice || say.problem) {
    setCookie(c, FLASH_COOKIE, JSON.stringify(say), {
      path: '/app',
      httpOnly: true,
      secure: cookieIsSecure(c),
      sameSite: 'Lax',
      maxAge: 60,
    })
  }
  return c.redirect(url, 303)
}

/** The member and token of the request, for the layout. */
export const frame = (c: PageContext): { member: DashboardMember; csrfToken: string } => ({
  member: c.get('member'),
  csrfToken: c.get('csrfToken'),
})

/** A post or target status as a badge in words ("In review"), coloured by the status. */
export const StatusBadge = ({ status }: { status: string }) => <UiStatusBadge status={status} />

/** A time in the workspace zone, readable, inside a <time> with the instant. */
export const ZonedTime = ({ at, timeZone }: { at: string | null; timeZone: string }) =>
  at ? (
    <time datetime={at}>
      {new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(at))}
    </time>
  ) : (
    <span>-</span>
  )
