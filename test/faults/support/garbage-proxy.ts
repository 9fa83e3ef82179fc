/**
 * A loopback HTTP proxy in front of any network fake that answers garbage to the requests of one
 * chosen call (a method and a path), and forwards everything else untouched. The modes are what a
 * network, a gateway or a captive portal really sends:
 * - `html`: 200 with an HTML page; the network never sees the request (did not act);
 * - `truncated`: the request goes to the fake (the network DID act: a post exists), then the answer
 *   is 200 with only the first half of the fake's JSON (an honest Content-Length, so it reads whole);
 * - `error-object`: 200 with a JSON error object in the network's own style; not forwarded;
 * - `redirect-loop`: 302 to the same address, endlessly (every hop is redirected again, whatever
 *   method the client follows it with); not forwarded;
 * - `stall`: the connection is held without a byte (30 s by default), then closed; not forwarded.
 * Every matching request meets the mode (retries included): garbage is what this network answers.
 * Forwarded answers have the fake's origin replaced by the proxy's (upload session URLs, Location),
 * as a reverse proxy rewrites them, so every later call of a flow comes through here too.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export const GARBAGE_MODES = ['html', 'truncated', 'error-object', 'redirect-loop', 'stall'] as const
export type GarbageMode = (typeof GARBAGE_MODES)[number]

/** Whether the network itself received (and acted on) the request in this mode. */
export const networkActs = (mode: GarbageMode): boolean => mode === 'truncated'

export interface GarbageRule {
  method: string
  path: RegExp
  mode: GarbageMode
  /** The `error-object` body, in the network's style. */
  errorObject?: unknown
}

export interface GarbageProxy {
  url: string
  /** From now on, requests matching `rule` meet its mode (null: forward everything). */
  garble(rule: GarbageRule | null): void
  /** Requests that met the mode (a redirect's hops counted once, on the first). */
  garbled: number
  /** Every hop of a redirect loop answered. */
  hops: number
  /** `METHOD /path` of every request received, in order. */
  seen: string[]
  close(): Promise<void>
}

const HOP = 'garbage-hop'
const PAGE = '<!DOCTYPE html><html><head><title>Welcome</title></head><body><h1>Sign in to continue</h1></body></html>'

export async function startGarbageProxy(target: string, options: { stallMs?: number } = {}): Promise<GarbageProxy> {
  const upstream = new URL(target)
  const stallMs = options.stallMs ?? 30_000
  let rule: GarbageRule | null = null
  const held = new Set<NodeJS.Timeout>()
  const proxy: GarbageProxy = {
    url: '',
    garble: (next) => {
      rule = next
    },
    garbled: 0,
    hops: 0,
    seen: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of held) clearTimeout(timer)
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  const forward = (req: IncomingMessage, body: Buffer, done: (status: number, headers: any, body: Buffer) => void) => {
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (c: Buffer) => chunks.push(c))
        answer.on('end', () => {
          // As a reverse proxy does: addresses the fake gives (upload sessions, Location) point back here.
          const text = Buffer.concat(chunks).toString('latin1').replaceAll(upstream.origin, proxy.url)
          const headers = { ...answer.headers }
          if (typeof headers.location === 'string')
            headers.location = headers.location.replace(upstream.origin, proxy.url)
          done(answer.statusCode ?? 502, headers, Buffer.from(text, 'latin1'))
        })
      },
    )
    out.on('error', () => done(502, {}, Buffer.alloc(0)))
    out.end(body)
  }
  const reply = (res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer) => {
    if (res.destroyed) return
    res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) })
    res.end(body)
  }
  const garble = (req: IncomingMessage, res: ServerResponse, body: Buffer, current: GarbageRule) => {
    const url = new URL(req.url ?? '/', proxy.url)
    switch (current.mode) {
      case 'html':
        return reply(res, 200, { 'content-type': 'text/html; charset=utf-8' }, PAGE)
      case 'error-object':
        return reply(
          res,
          200,
          { 'content-type': 'application/json; charset=utf-8' },
          JSON.stringify(current.errorObject ?? { error: { message: 'An unknown error occurred' } }),
        )
      case 'redirect-loop': {
        proxy.hops++
        url.searchParams.set(HOP, String(Number(url.searchParams.get(HOP) ?? 0) + 1))
        return reply(res, 302, { location: url.toString(), 'content-type': 'text/plain' }, 'Found')
      }
      case 'stall': {
        const timer = setTimeout(() => {
          held.delete(timer)
          req.socket.destroy()
        }, stallMs)
        held.add(timer)
        req.socket.once('close', () => {
          clearTimeout(timer)
          held.delete(timer)
        })
        return
      }
      case 'truncated':
        return forward(req, body, (status, headers, full) => {
          const half = full.subarray(0, Math.floor(full.length / 2))
          reply(res, status >= 200 && status < 300 ? status : 200, { 'content-type': 'application/json' }, half)
          void headers
        })
    }
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const url = new URL(req.url ?? '/', 'http://proxy.local')
      proxy.seen.push(`${req.method} ${url.pathname}`)
      const current = rule
      const hop = url.searchParams.has(HOP)
      const matches = current !== null && current.method === req.method && current.path.test(url.pathname)
      if (current && (matches || (hop && current.mode === 'redirect-loop'))) {
        if (!hop) proxy.garbled++
        return garble(req, res, body, current)
      }
      forward(req, body, (status, headers, answer) => {
        if (res.destroyed) return
        const { 'content-length': _length, 'transfer-encoding': _encoding, connection: _c, ...rest } = headers
        res.writeHead(status, { ...rest, 'content-length': String(answer.length) })
        res.end(answer)
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return proxy
}
