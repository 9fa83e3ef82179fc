/**
 * The multi-instance test's machinery: a delaying proxy in front of a network fake (so a kill lands
 * while calls are on the wire), three `npm start` servers on one database, and the dashboard's
 * sign-in through plain HTTP.
 */
import { startServer, type StartedServer } from '../../support/processes'
import { startLatencyProxy } from './crash-harness'

/** Passes every request on after `inMs` and its answer back after `outMs` (the network acted meanwhile). */
export const startDelayProxy = (target: string, latency: { inMs: number; outMs: number }) =>
  startLatencyProxy(target, () => ({ in: latency.inMs, out: latency.outMs }))

/** A started server that may be killed (SIGKILL: no shutdown hook runs) or stopped. */
export interface Instance {
  server: StartedServer
  url: string
  exited: boolean
}

export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const server = await startServer(env)
  const instance: Instance = { server, url: server.baseUrl, exited: false }
  server.child.once('exit', () => {
    instance.exited = true
  })
  return instance
}

export async function killInstance(instance: Instance): Promise<void> {
  const exited = new Promise((resolve) => instance.server.child.once('exit', resolve))
  instance.server.child.kill('SIGKILL')
  await exited
}

/** The `name=value` pairs of a response's Set-Cookie headers. */
function cookiesOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const at = pair!.indexOf('=')
    out[pair!.slice(0, at)] = pair!.slice(at + 1)
  }
  return out
}

export const csrfOf = (html: string): string => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''

/** Signs in through the form of the server at `base`: the session's Cookie header. */
export async function signInAt(base: string, email: string, password: string): Promise<string> {
  const form = await fetch(`${base}/app/sign-in`)
  const formCookie = cookiesOf(form).sps_form
  if (!formCookie) throw new Error(`no sign-in form cookie (${form.status})`)
  const res = await fetch(`${base}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `sps_form=${formCookie}`, origin: base },
    body: new URLSearchParams({ _csrf: formCookie, email, password }).toString(),
  })
  const session = cookiesOf(res).sps_session
  if (res.status !== 303 || !session) throw new Error(`sign-in answered ${res.status}`)
  return `sps_session=${session}`
}

/** A dashboard form post (with the session's cookie and a CSRF token) to the server at `base`. */
export function postForm(base: string, path: string, cookie: string, fields: Record<string, string>) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: base },
    body: new URLSearchParams(fields).toString(),
  })
}
