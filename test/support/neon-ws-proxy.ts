import net from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'

/**
 * What Neon's edge does for its serverless driver, for a plain PostgreSQL on this machine: each
 * WebSocket becomes one TCP connection to the database. The `address` the driver asks for is
 * ignored: it always goes to the configured server (never an open relay).
 */
export async function startNeonWsProxy(options: { pgHost?: string; pgPort?: number; port?: number } = {}) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: options.port ?? 0 })
  const sockets = new Set<net.Socket>()
  server.on('connection', (ws: WebSocket) => {
    const tcp = net.connect({ host: options.pgHost ?? '127.0.0.1', port: options.pgPort ?? 5432 })
    sockets.add(tcp)
    tcp.setNoDelay(true)
    const early: Buffer[] = []
    let connected = false
    tcp.on('connect', () => {
      connected = true
      for (const chunk of early) tcp.write(chunk)
      early.length = 0
    })
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const chunk = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)
      if (connected) tcp.write(chunk)
      else early.push(chunk)
    })
    tcp.on('data', (chunk) => {
      if (ws.readyState === ws.OPEN) ws.send(chunk)
    })
    const closeBoth = () => {
      sockets.delete(tcp)
      tcp.destroy()
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close()
    }
    tcp.on('error', closeBoth)
    tcp.on('close', closeBoth)
    ws.on('close', closeBoth)
    ws.on('error', closeBoth)
  })
  await new Promise<void>((resolve) => server.on('listening', () => resolve()))
  const { port } = server.address() as net.AddressInfo
  return {
    /** `host:port`, the value of NEON_WS_PROXY. */
    address: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        for (const client of server.clients) client.terminate()
        server.close(() => resolve())
      }),
  }
}
