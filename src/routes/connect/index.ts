/**
 * The hosted connect pages, outside `/v1` (no API token: the link's own token is the key) and not
 * part of the OpenAPI description: `/connect/{token}` (the start page, or a form for networks
 * without OAuth), `/connect/{token}/authorize` (on to the network's consent page) and
 * `/oauth/callback/{platform}` (where the network sends the owner back).
 */
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { AppError } from '../../domain/errors'
import { PLATFORM_IDS, type PlatformId } from '../../domain/vocabulary'
import { baseUrlOf } from '../../http/base-url'
import type { AppEnv } from '../../http/context'
import { describeProblem, guardInput } from '../../http/input-guard'
import { formFieldsOf, submitConnectForm } from '../../services/connect/form'
import { type Connected, ConnectRefusal } from '../../services/connect/refusal'
import { completeChoice, type IdentityChoice } from '../../services/connect/choices'
import { completeAuthorization, openLink, startAuthorization } from '../../services/connect/hosted'
import { choosePage, continuePage, donePage, formPage, instancePage, refusedPage, sendPage, startPage } from './render'

const FORM_LIMIT = bodyLimit({ maxSize: 16 * 1024 })

/**
 * The owner's server address was the problem (not one, not reachable, or it would not register us):
 * the address form again with the reason, so they can name another, rather than a dead end.
 */
const ADDRESS_PROBLEMS = new Set(['invalid_instance', 'instance_unreachable', 'instance_refused'])

/** The hosted pages' answer to an address or form they cannot take: their own page, 404 or 400. */
const guardPages = () =>
  guardInput({
    notFound: (c) => sendPage(c, 404, 'Not connected', refusedPage('There is no such link.')),
    refuse: (c, problem) => sendPage(c, 400, 'Not connected', refusedPage(describeProblem(problem))),
  })

/** Back to the caller's page with the account id(s), or our own page saying it is done. */
function connected(c: Context<AppEnv>, done: Connected) {
  if (done.redirectUrl) {
    const url = new URL(done.redirectUrl)
    for (const a of done.accounts) url.searchParams.append('accountId', a.accountId)
    url.searchParams.set('platform', done.platform)
    return c.redirect(url.href, 302)
  }
  const names = done.accounts.map((a) => a.username).join(', ')
  return sendPage(c, 200, 'Connected', donePage(done.platform, names, done.reconnected))
}

/** The chooser, or the account(s) connected at once. */
function connectedOrChoose(c: Context<AppEnv>, done: Connected | IdentityChoice) {
  if (!('token' in done)) return connected(c, done)
  const targets = done.redirectUrl ? [new URL(done.redirectUrl).origin] : []
  const page = choosePage(done.platform, `/oauth/choose/${done.platform}`, done.token, done.identities)
  return sendPage(c, 200, `Choose ${done.platform} accounts`, page, targets)
}

/** A refusal: back to the caller's page with `error` and `message` when it gave one, else our page. */
function refused(c: Context<AppEnv>, err: unknown) {
  if (err instanceof AppError && err.code === 'plan_limit_reached')
    return sendPage(c, 422, 'Not connected', refusedPage(err.message))
  if (!(err instanceof ConnectRefusal)) throw err
  if (err.redirectUrl) {
    const url = new URL(err.redirectUrl)
    url.searchParams.set('error', err.code)
    url.searchParams.set('message', err.message)
    return c.redirect(url.href, 302)
  }
  return sendPage(c, err.status, 'Not connected', refusedPage(err.message))
}

export function connectSite(): Hono<AppEnv> {
  const site = new Hono<AppEnv>()
  site.use('*', guardPages())
  site.get('/:token', async (c) => {
    const token = c.req.param('token')
    try {
      const { link, method } = await openLink(c.var.deps, token)
      const reconnect = link.accountId !== null
      if (method.kind === 'form') {
        const fields = formFieldsOf(link.platform, link.connection)
        const targets = link.redirectUrl ? [new URL(link.redirectUrl).origin] : []
        return sendPage(
          c,
          200,
          `Connect ${link.platform}`,
          formPage(link.platform, reconnect, `/connect/${token}`, fields, {}, null),
          targets,
        )
      }
      if (method.kind === 'federated')
        return sendPage(
          c,
          200,
          `Connect ${link.platform}`,
          instancePage(link.platform, reconnect, `/connect/${token}/instance`, null),
        )
      const href = `/connect/${token}/authorize`
      return sendPage(
        c,
        200,
        `Connect ${link.platform}`,
        startPage(link.platform, reconnect, href, method.kind === 'sandbox'),
      )
    } catch (err) {
      return refused(c, err)
    }
  })
  site.get('/:token/authorize', async (c) => {
    try {
      return c.redirect(await startAuthorization(c.var.deps, c.req.param('token'), baseUrlOf(c)), 302)
    } catch (err) {
      return refused(c, err)
    }
  })
  // The federated network: the owner's server, then on to sign in there (a link: the page's policy
  // lets forms end only at ourselves, and the server is not known in advance).
  site.post('/:token/instance', FORM_LIMIT, async (c) => {
    const token = c.req.param('token')
    const instance = String((await c.req.parseBody()).instance ?? '')
    try {
      const url = await startAuthorization(c.var.deps, token, baseUrlOf(c), instance)
      const origin = new URL(url).origin
      return sendPage(c, 200, `Sign in at ${origin}`, continuePage(origin, url))
    } catch (err) {
      if (!(err instanceof ConnectRefusal) || !ADDRESS_PROBLEMS.has(err.code)) return refused(c, err)
      const { link } = await openLink(c.var.deps, token)
      const page = instancePage(link.platform, link.accountId !== null, `/connect/${token}/instance`, err.message)
      return sendPage(c, 422, `Connect ${link.platform}`, page)
    }
  })
  site.post('/:token', FORM_LIMIT, async (c) => {
    const token = c.req.param('token')
    const body = await c.req.parseBody()
    const form = Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === 'string')) as Record<
      string,
      string
    >
    try {
      return connected(c, await submitConnectForm(c.var.deps, token, form))
    } catch (err) {
      if (!(err instanceof ConnectRefusal) || err.code !== 'invalid_credentials') return refused(c, err)
      // The form again, with what was wrong; secrets are never written back into it.
      const { link } = await openLink(c.var.deps, token)
      const fields = formFieldsOf(link.platform, link.connection)
      const targets = link.redirectUrl ? [new URL(link.redirectUrl).origin] : []
      const page = formPage(link.platform, link.accountId !== null, `/connect/${token}`, fields, form, err.message)
      return sendPage(c, 422, `Connect ${link.platform}`, page, targets)
    }
  })
  return site
}

export function oauthCallbackSite(): Hono<AppEnv> {
  const site = new Hono<AppEnv>()
  site.use('*', guardPages())
  site.get('/callback/:platform', async (c) => {
    const platform = c.req.param('platform')
    if (!(PLATFORM_IDS as readonly string[]).includes(platform))
      return sendPage(c, 404, 'Not connected', refusedPage('There is no such network.'))
    try {
      const query = new URL(c.req.url).searchParams
      const done = await completeAuthorization(c.var.deps, platform as PlatformId, query, baseUrlOf(c))
      return connectedOrChoose(c, done)
    } catch (err) {
      return refused(c, err)
    }
  })
  // The identity chooser's form: the choice's single-use token and the ticked identities.
  site.post('/choose/:platform', FORM_LIMIT, async (c) => {
    const platform = c.req.param('platform')
    if (!(PLATFORM_IDS as readonly string[]).includes(platform))
      return sendPage(c, 404, 'Not connected', refusedPage('There is no such network.'))
    const body = await c.req.parseBody({ all: true })
    const token = typeof body.choice === 'string' ? body.choice : ''
    const chosen = [body.identity ?? []].flat().filter((v): v is string => typeof v === 'string')
    try {
      return connected(c, await completeChoice(c.var.deps, platform as PlatformId, token, chosen))
    } catch (err) {
      return refused(c, err)
    }
  })
  return site
}
