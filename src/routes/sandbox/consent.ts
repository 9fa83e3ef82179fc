/**
 * The sandbox network's consent page (`/sandbox/oauth/authorize`): the simulated network's side of
 * a hosted connect, so `npm start` shows the whole flow without an account anywhere. It only ever
 * sends the browser back to this service's own callback, with the name chosen as the "code".
 */
import type { Context } from 'hono'
import { PLATFORM_IDS } from '../../domain/vocabulary'
import type { AppEnv } from '../../http/context'
import { callbackUrl, sandboxCode } from '../../services/connect/hosted'
import { baseUrlOf } from '../../http/base-url'
import { refusedPage, sandboxConsentPage, sendPage } from '../connect/render'

/** The request's platform, state and return address, when the address is our own callback for it. */
function consentRequest(c: Context<AppEnv>, values: Record<string, unknown>) {
  const platform = String(values.platform ?? '')
  const state = String(values.state ?? '')
  const redirectUri = String(values.redirect_uri ?? '')
  if (!(PLATFORM_IDS as readonly string[]).includes(platform) || !state) return null
  if (redirectUri !== callbackUrl(baseUrlOf(c), platform as (typeof PLATFORM_IDS)[number])) return null
  return { platform, state, redirectUri }
}

export async function sandboxConsent(c: Context<AppEnv>) {
  const request = consentRequest(c, c.req.query())
  if (!request)
    return sendPage(
      c,
      400,
      'Sandbox sign-in',
      refusedPage('This sign-in request is not valid: start from a connect link.'),
    )
  // The decision's redirects end at the link's return address; browsers hold the whole chain of a form
  // submission to form-action, so the policy names every origin a link may send the owner back to.
  return sendPage(
    c,
    200,
    'Sandbox sign-in',
    sandboxConsentPage(request.platform, request, `sandbox_${request.platform.toLowerCase()}`),
    [...(c.var.deps.settings.connectRedirectOrigins ?? [])],
  )
}

export async function sandboxDecision(c: Context<AppEnv>) {
  const body = await c.req.parseBody()
  const request = consentRequest(c, body)
  if (!request)
    return sendPage(
      c,
      400,
      'Sandbox sign-in',
      refusedPage('This sign-in request is not valid: start from a connect link.'),
    )
  const back = new URL(request.redirectUri)
  const username = String(body.username ?? '')
    .trim()
    .slice(0, 64)
  if (body.decision === 'allow' && username) {
    back.searchParams.set('code', sandboxCode(username))
  } else {
    back.searchParams.set('error', 'access_denied')
    back.searchParams.set('error_description', 'the owner denied access on the sandbox consent page')
  }
  back.searchParams.set('state', request.state)
  return c.redirect(back.href, 302)
}
