/**
 * A loopback HTTP server standing in for a website that hosts files (media from a URL): each path
 * answers with its handler, anything else 404. It records the paths asked and, for a streamed body,
 * how much was written and whether the client hung up first. Servers close when the test file is done.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll } from 'vitest'

export interface Source {
  url: string
  /** Paths asked, in order. */
  requests: string[]
  /** Bytes written by streaming handlers, and whether the client hung up before the end. */
  stream: { written: number; closedEarly: boolean }
}

const servers: Array<ReturnType<typeof createServer>> = []
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections()
    await new Promise((resolve) => s.close(resolve))
  }
})

export type Handler = (req: IncomingMessage, res: ServerResponse, source: Source) => void

/** A server answering each path with its handler (404 otherwise). */
export async function startSource(routes: Record<string, Handler>): Promise<Source> {
  const source: Source = { url: '', requests: [], stream: { written: 0, closedEarly: false } }
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    source.requests.push(path)
    const handler = routes[path]
    if (handler) return handler(req, res, source)
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such file')
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  source.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return source
}

export const file =
  (bytes: Uint8Array, contentType: string): Handler =>
  (_req, res) =>
    res.writeHead(200, { 'content-type': contentType, 'content-length': String(bytes.byteLength) }).end(bytes)
export const redirect =
  (location: string, status = 302): Handler =>
  (_req, res) =>
    res.writeHead(status, { location }).end()

/** Chunked (no length given), starting with a JPEG's magic bytes, up to `total` bytes. */
export const endless =
  (total: number): Handler =>
  (_req, res, source) => {
    res.writeHead(200, { 'content-type': 'image/jpeg' })
    res.on('close', () => {
      if (!res.writableFinished) source.stream.closedEarly = true
    })
    const chunk = new Uint8Array(16 * 1024).fill(7)
    chunk.set([0xff, 0xd8, 0xff, 0xe0])
    const pump = () => {
      while (source.stream.written < total && !res.destroyed) {
        source.stream.written += chunk.byteLength
        if (!res.write(chunk)) return void res.once('drain', pump)
      }
      if (!res.destroyed) res.end()
    }
    pump()
  }
