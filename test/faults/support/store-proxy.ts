/**
 * A fault proxy in front of the test's object store (test/support/storage.ts): a loopback HTTP
 * server on a port of its own that passes every request through untouched (the Host header too, so
 * SigV4 signatures made for the proxy's address still verify at the store), until the test switches
 * it to a fault:
 * - `refused`: the proxy stops listening, so a connection is refused; back on the same port after;
 * - `reset`: every connection is cut (TCP reset) as soon as the request arrives;
 * - `busy`: S3's own error answers, 503 with the XML body S3 sends (`SlowDown`, `ServiceUnavailable`);
 * - `stall`: every request waits `sec` seconds before it is passed on; a client that gave up
 *   meanwhile is not passed on (what a store that never got the whole request does).
 * A fault may apply to some methods only (`methods: ['PUT']`: reads pass, writes fail). It counts
 * the requests it faulted, so a test can tell its fault was met.
 * (crash-harness.ts's `startLatencyProxy` buffers whole answers and always forwards; a store proxy
 * streams bodies both ways and must refuse or cut connections, hence its own server.)
 */
import { randomBytes } from 'node:crypto'
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export type StoreFault =
  | { kind: 'pass' }
  | { kind: 'refused' }
  | { kind: 'reset'; methods?: string[] }
  | { kind: 'busy'; code: 'SlowDown' | 'ServiceUnavailable'; methods?: string[] }
  | { kind: 'stall'; sec: number; methods?: string[] }

export interface StoreProxy {
  url: string
  /** Switches the fault; resolves once it holds (`refused`: the port closed; `pass`: listening again). */
  set(fault: StoreFault): Promise<void>
  /** Requests met by a fault since the last `set`. */
  faulted(): number
  close(): Promise<void>
}

const BUSY_MESSAGE = {
  SlowDown: 'Please reduce your request rate.',
  ServiceUnavailable: 'Service is unable to handle request.',
}

function busy(res: ServerResponse, req: IncomingMessage, code: keyof typeof BUSY_MESSAGE) {
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${BUSY_MESSAGE[code]}</Message>` +
    `<RequestId>${randomBytes(8).toString('hex').toUpperCase()}</RequestId></Error>`
  req.resume()
  res.writeHead(503, { 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(body)) })
  res.end(body)
}

/** Passes the request on to the store and its answer back, both bodies streamed. */
function forward(req: IncomingMessage, res: ServerResponse, upstream: URL) {
  const out = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    },
  )
  out.on('error', () => res.destroy())
  res.on('close', () => {
    if (!res.writableFinished) out.destroy()
  })
  req.pipe(out)
}

export async function startStoreProxy(target: string): Promise<StoreProxy> {
  const upstream = new URL(target)
  let fault: StoreFault = { kind: 'pass' }
  let faulted = 0
  const sockets = new Set<Socket>()
  const applies = (req: IncomingMessage) =>
    fault.kind !== 'pass' && (!('methods' in fault) || !fault.methods || fault.methods.includes(req.method ?? ''))
  const server = createServer((req, res) => {
    if (!applies(req)) return forward(req, res, upstream)
    faulted++
    const now = fault
    if (now.kind === 'reset') return req.socket.resetAndDestroy()
    if (now.kind === 'busy') return busy(res, req, now.code)
    if (now.kind === 'stall') {
      // The request's body is held back with the request: the store sees nothing until the stall ends.
      req.pause()
      const timer = setTimeout(() => {
        if (!res.destroyed && !req.destroyed) forward(req, res, upstream)
      }, now.sec * 1000)
      res.on('close', () => clearTimeout(timer))
      return
    }
    forward(req, res, upstream)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      for (const s of sockets) s.destroy()
    })
  await listen(0)
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    async set(next) {
      const wasRefused = fault.kind === 'refused'
      fault = next
      faulted = 0
      if (next.kind === 'refused' && !wasRefused) await stopListening()
      if (next.kind !== 'refused' && wasRefused) await listen(port)
      // Connections kept alive from before a fault would carry on as if nothing happened; the
      // clients are given a moment to see them closed, so the fault meets a new request, not a
      // request sent on a connection closing under it.
      if (next.kind !== 'pass' && sockets.size > 0) {
        for (const s of sockets) s.destroy()
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    faulted: () => faulted,
    async close() {
      if (fault.kind !== 'refused') await stopListening()
    },
  }
}
