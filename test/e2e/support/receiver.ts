/**
 * A user's webhook receiver on loopback: records each POST (headers and raw body) and answers 204,
 * so a test can check each message with the `standardwebhooks` library as a receiver would.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Delivered {
  headers: Record<string, string>
  body: string
}

export interface Receiver {
  url: string
  received: Delivered[]
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const received: Delivered[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
