/**
 * The multi-instance test's machinery: a delaying proxy in front of a network fake (so a kill lands
 * while calls are on the wire), three `npm start` servers on one database, and the dashboard's
 * sign-in through plain HTTP.
 */
import { createServer, request, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startServer, type StartedServer } from '../../support/processes'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Passes every request on after `inMs` and its answer back after `outMs` (the network acted meanwhile). */
export async function startDelayProxy(target: string, latency: { inMs: number; outMs: number }) {
  const upstream = new URL(target)
  let inFlight = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    inFlight++
    res.once('close', () => inFlight--)
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      await sleep(latency.inMs)
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer: IncomingMessage) => {
          const body: Buffer[] = []
          answer.on('data', (c: Buffer) => body.push(c))
          answer.on('end', async () => {
            await sleep(latency.outMs)
            if (res.destroyed) return
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            res.end(Buffer.concat(body))
          })
        },
      )
      forward.on('error', () => res.destroy())
      forward.end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    inFlight: () => inFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

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
