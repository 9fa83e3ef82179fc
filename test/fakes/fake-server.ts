/**
 * A loopback HTTP server standing in for a network in tests: real HTTP on 127.0.0.1, the request
 * as the network would receive it (method, path, query, headers, raw body), and whatever status,
 * headers and body the network's documentation says it answers. Each network's fake
 * (test/fakes/<network>.ts) is a set of routes over this; adapters reach it through their
 * configured origin, never through a patched fetch. Servers close when the test file is done.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll } from 'vitest'

export interface FakeRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: Record<string, string>
  body: Buffer
  /** The body as JSON (throws when it is not). */
  json(): any
  /** The body as `application/x-www-form-urlencoded`. */
  form(): URLSearchParams
  /** The body as `multipart/form-data` (files are Blobs). */
  formData(): Promise<FormData>
}

export interface FakeReply {
  status?: number
  headers?: Record<string, string>
  json?: unknown
  body?: string | Uint8Array
}

export type FakeHandler = (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>
export type FakeRoute = [method: string, path: string | RegExp, handler: FakeHandler]

/**
 * What can go wrong between us and a network, injected at the fake (tests/reliability). Each is a
 * real HTTP (or socket) behaviour, seen by the adapter through its ordinary fetch:
 * - `status`: an error status (500, 502, 503...), plain text unless `json` or `body` is given;
 * - `rate-limit`: 429 with `Retry-After: <seconds>` (and the network's own body when given);
 * - `html`: an error page in HTML, as a proxy or load balancer sends it, with this status;
 * - `malformed`: a 2xx whose body is not JSON (cut in half with an honest Content-Length);
 * - `truncate`: the headers promise more bytes than are sent, then the socket is destroyed;
 * - `reset`: the socket is destroyed before any answer;
 * - `hang`: no answer at all until the client gives up (or `ms` passes, then the socket is destroyed);
 * - `delay`: the answer waits until `until` settles, then goes out unchanged (to act meanwhile).
 */
export type Fault =
  | { kind: 'status'; status: number; headers?: Record<string, string>; json?: unknown; body?: string }
  | { kind: 'rate-limit'; retryAfterSec: number; json?: unknown }
  | { kind: 'html'; status: number }
  | { kind: 'malformed' }
  | { kind: 'truncate' }
  | { kind: 'reset' }
  | { kind: 'hang'; ms?: number }
  | { kind: 'delay'; until: Promise<unknown> }

export interface FaultOptions {
  /** How many matching requests get the fault (default 1). */
  times?: number
  /** Matching requests let through untouched before the first fault (default 0). */
  skip?: number
  /**
   * The network does the work first (the route runs: a post is created), then the fault hits its
   * answer: the lost-answer case. Without it the route never runs (nothing is created).
   */
  after?: boolean
}

export interface InjectedFault {
  method: string
  path: string
  kind: Fault['kind']
  after: boolean
  at: Date
}

export interface FakeServer {
  /** `http://127.0.0.1:<port>`: the origin to configure (`<PLATFORM_ID>_API_URL`, a server URL). */
  url: string
  /** Every request received, in order. */
  requests: FakeRequest[]
  /** Requests matching a method and path (a string equal to the path, or a RegExp). */
  calls(method: string, path: string | RegExp): FakeRequest[]
  /** The next matching requests (method and path as in `calls`) meet this fault; rules apply in order. */
  fault(method: string, path: string | RegExp, fault: Fault, options?: FaultOptions): void
  /** Every fault that hit a request, in order. */
  injected: InjectedFault[]
  close(): Promise<void>
}

interface FaultRule {
  method: string
  path: string | RegExp
  fault: Fault
  left: number
  skip: number
  after: boolean
}

/** An answer ready to write: the route's, or a fault's. */
interface Prepared {
  status: number
  headers: Record<string, string>
  body: Buffer
}

function prepare(reply: FakeReply): Prepared {
  const headers = { ...reply.headers }
  let body: string | Uint8Array | undefined = reply.body
  if (reply.json !== undefined) {
    body = JSON.stringify(reply.json)
    headers['content-type'] ??= 'application/json; charset=utf-8'
  }
  return { status: reply.status ?? 200, headers, body: body === undefined ? Buffer.alloc(0) : Buffer.from(body) }
}

const STATUS_WORDS: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

function write(res: ServerResponse, answer: Prepared): void {
  res.writeHead(answer.status, answer.headers)
  res.end(answer.body)
}

/** Writes what the fault makes of `real` (the route's answer with `after`, else null). */
async function writeFault(req: IncomingMessage, res: ServerResponse, fault: Fault, real: Prepared | null) {
  const destroy = () => req.socket.destroy()
  switch (fault.kind) {
    case 'status': {
      const { status, json } = fault
      const plain = { 'content-type': 'text/plain; charset=utf-8', ...fault.headers }
      const body = fault.body ?? STATUS_WORDS[status] ?? 'Error'
      return write(
        res,
        prepare(json !== undefined ? { status, headers: fault.headers, json } : { status, headers: plain, body }),
      )
    }
    case 'rate-limit': {
      const headers = { 'retry-after': String(fault.retryAfterSec) }
      const reply: FakeReply =
        fault.json !== undefined
          ? { status: 429, headers, json: fault.json }
          : { status: 429, headers: { ...headers, 'content-type': 'text/plain' }, body: 'Too Many Requests' }
      return write(res, prepare(reply))
    }
    case 'html': {
      const words = `${fault.status} ${STATUS_WORDS[fault.status] ?? 'Error'}`
      const page = `<!DOCTYPE html><html><head><title>${words}</title></head><body><h1>${words}</h1></body></html>`
      return write(res, prepare({ status: fault.status, headers: { 'content-type': 'text/html' }, body: page }))
    }
    case 'malformed': {
      const text = real && real.body.length > 1 ? real.body.subarray(0, Math.floor(real.body.length / 2)) : null
      const body = text ?? Buffer.from('{"data": {"id": "1')
      const headers = { ...real?.headers, 'content-type': 'application/json' }
      const status = real && real.status < 300 ? real.status : 200
      return write(res, { status, headers, body })
    }
    case 'truncate': {
      const full = real && real.body.length > 1 ? real : prepare({ json: { data: { id: '1', text: 'cut off' } } })
      res.writeHead(full.status, { ...full.headers, 'content-length': String(full.body.length) })
      res.write(full.body.subarray(0, Math.floor(full.body.length / 2)), () => setTimeout(destroy, 20))
      return
    }
    case 'reset':
      return destroy()
    case 'hang': {
      const timer = setTimeout(destroy, fault.ms ?? 120_000)
      timer.unref()
      req.socket.once('close', () => clearTimeout(timer))
      return
    }
    case 'delay':
      await fault.until.catch(() => undefined)
      if (real) return write(res, real)
  }
}

const open = new Set<Server>()

function toFakeRequest(req: IncomingMessage, body: Buffer): FakeRequest {
  const url = new URL(req.url ?? '/', 'http://fake.local')
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers,
    body,
    json: () => JSON.parse(body.toString('utf8')),
    form: () => new URLSearchParams(body.toString('utf8')),
    formData: () =>
      new Response(new Uint8Array(body), { headers: { 'content-type': headers['content-type'] ?? '' } }).formData(),
  }
}

const matches = (route: string | RegExp, path: string): string[] | null => {
  if (typeof route === 'string') return route === path ? [] : null
  const m = route.exec(path)
  return m ? m.slice(1) : null
}

/**
 * Starts a fake on a free loopback port. Routes are tried in order; an unmatched request gets 404
 * with `notFound`'s body (each network's own "no such endpoint" shape) so an adapter calling a
 * wrong path fails loudly in the test.
 */
export async function startFakeServer(
  routes: FakeRoute[],
  notFound: (req: FakeRequest) => FakeReply = () => ({ status: 404, json: { error: 'no such endpoint in the fake' } }),
): Promise<FakeServer> {
  const requests: FakeRequest[] = []
  const rules: FaultRule[] = []
  const injected: InjectedFault[] = []
  /** The fault this request meets, if any (a rule's skips are used up first). */
  const faultFor = (request: FakeRequest): FaultRule | null => {
    for (const rule of rules) {
      if (rule.left <= 0 || rule.method !== request.method || matches(rule.path, request.path) === null) continue
      if (rule.skip > 0) {
        rule.skip--
        return null
      }
      rule.left--
      return rule
    }
    return null
  }
  const answer = async (request: FakeRequest): Promise<Prepared> => {
    let reply: FakeReply
    try {
      const route = routes
        .map((r) => [r, r[0] === request.method ? matches(r[1], request.path) : null] as const)
        .find(([, params]) => params)
      reply = route ? await route[0][2](request, route[1]!) : notFound(request)
    } catch (err) {
      reply = { status: 500, json: { error: `fake failed: ${(err as Error).message}` } }
    }
    return prepare(reply)
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const request = toFakeRequest(req, Buffer.concat(chunks))
      requests.push(request)
      const rule = faultFor(request)
      if (!rule) return write(res, await answer(request))
      const { fault, after } = rule
      injected.push({ method: request.method, path: request.path, kind: fault.kind, after, at: new Date() })
      if (fault.kind === 'delay' && !after) {
        await writeFault(req, res, fault, null)
        return write(res, await answer(request))
      }
      await writeFault(req, res, fault, after ? await answer(request) : null)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  open.add(server)
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls: (method, path) => requests.filter((r) => r.method === method && matches(path, r.path) !== null),
    fault: (method, path, fault, options = {}) =>
      rules.push({
        method,
        path,
        fault,
        left: options.times ?? 1,
        skip: options.skip ?? 0,
        after: options.after ?? false,
      }),
    injected,
    close: () =>
      new Promise<void>((resolve) => {
        open.delete(server)
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Closes every server still open (the end of a test file, or a global setup's teardown). */
export async function closeAllFakeServers(): Promise<void> {
  await Promise.all(
    [...open].map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections()
          s.close(() => resolve())
        }),
    ),
  )
  open.clear()
}

// Inside a test file the servers close with it; a global setup (no test runner) closes its own.
try {
  afterAll(closeAllFakeServers)
} catch {
  // not in a test file
}
