/**
 * A loopback HTTP server standing in for a network in tests: real HTTP on 127.0.0.1, the request
 * as the network would receive it (method, path, query, headers, raw body), and whatever status,
 * headers and body the network's documentation says it answers. Each network's fake
 * (test/fakes/<network>.ts) is a set of routes over this; adapters reach it through their
 * configured origin, never through a patched fetch. Servers close when the test file is done.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
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

export interface FakeServer {
  /** `http://127.0.0.1:<port>`: the origin to configure (`<PLATFORM_ID>_API_URL`, a server URL). */
  url: string
  /** Every request received, in order. */
  requests: FakeRequest[]
  /** Requests matching a method and path (a string equal to the path, or a RegExp). */
  calls(method: string, path: string | RegExp): FakeRequest[]
  close(): Promise<void>
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
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const request = toFakeRequest(req, Buffer.concat(chunks))
      requests.push(request)
      let reply: FakeReply
      try {
        const route = routes
          .map((r) => [r, r[0] === request.method ? matches(r[1], request.path) : null] as const)
          .find(([, params]) => params)
        reply = route ? await route[0][2](request, route[1]!) : notFound(request)
      } catch (err) {
        reply = { status: 500, json: { error: `fake failed: ${(err as Error).message}` } }
      }
      const headers = { ...reply.headers }
      let body: string | Uint8Array | undefined = reply.body
      if (reply.json !== undefined) {
        body = JSON.stringify(reply.json)
        headers['content-type'] ??= 'application/json; charset=utf-8'
      }
      res.writeHead(reply.status ?? 200, headers)
      res.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  open.add(server)
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls: (method, path) => requests.filter((r) => r.method === method && matches(path, r.path) !== null),
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
