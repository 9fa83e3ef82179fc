import net from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { drizzle } from 'drizzle-orm/pglite'
import * as schema from '../../src/db/schema'
import type { Db } from '../../src/db/types'

export interface EmbeddedPostgresServer {
  /** Drizzle over the same PGlite, for setup work in Node (migrations, seed rows). */
  db: Db
  /** TCP port speaking the PostgreSQL wire protocol (any user and password are accepted). */
  port: number
  close(): Promise<void>
}

/**
 * An in-memory PGlite served over TCP, for clients that need a PostgreSQL server (the Neon driver
 * inside workerd, through the WebSocket proxy).
 *
 * PGlite is ONE session: pglite-socket queues the queries of every connection one at a time, so
 * concurrent transactions on different connections are not isolated. Good for tests only.
 *
 * pglite-socket 0.2.17 ignores the Terminate message and keeps the socket open, so a client's
 * `pool.end()` would wait forever and every Worker request would leave its connections behind
 * (until `maxConnections` refuses new ones). A small relay in front of it closes the connection
 * when the client sends Terminate, as PostgreSQL does.
 */
export async function startEmbeddedPostgresServer(): Promise<EmbeddedPostgresServer> {
  const pglite = await PGlite.create({ extensions: { pg_trgm } })
  const socketServer = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 32 })
  await socketServer.start()
  const socketPort = Number(socketServer.getServerConn().split(':').pop())
  const relay = await startTerminateRelay(socketPort)
  return {
    db: drizzle({ client: pglite, schema }) as unknown as Db,
    port: relay.port,
    async close() {
      await relay.close()
      await socketServer.stop()
      await pglite.close()
    },
  }
}

const SSL_REQUEST_CODE = 80877103
const GSSENC_REQUEST_CODE = 80877104
const TERMINATE = 0x58 // 'X'

/**
 * TCP relay to `127.0.0.1:upstreamPort` that follows the frontend messages of each connection and,
 * on Terminate, closes both sides instead of forwarding it.
 */
async function startTerminateRelay(upstreamPort: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: '127.0.0.1', port: upstreamPort })
    for (const s of [client, upstream]) {
      s.setNoDelay(true)
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
    }
    const closeBoth = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on('error', closeBoth)
    upstream.on('error', closeBoth)
    client.on('close', () => upstream.end())
    upstream.on('close', () => client.end())
    upstream.pipe(client)

    // Frontend framing: untyped start-up packets (SSL/GSS requests, then the StartupMessage or a
    // CancelRequest), then typed messages (1 type byte + int32 length that counts itself).
    let startup = true
    let pending: Buffer = Buffer.alloc(0)
    client.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      let offset = 0
      while (true) {
        if (startup) {
          if (pending.length - offset < 8) break
          const length = pending.readInt32BE(offset)
          const code = pending.readInt32BE(offset + 4)
          if (pending.length - offset < length) break
          offset += length
          if (code !== SSL_REQUEST_CODE && code !== GSSENC_REQUEST_CODE) startup = false
          continue
        }
        if (pending.length - offset < 5) break
        if (pending[offset] === TERMINATE) {
          if (offset > 0) upstream.write(pending.subarray(0, offset))
          upstream.end()
          client.end()
          pending = Buffer.alloc(0)
          return
        }
        const length = 1 + pending.readInt32BE(offset + 1)
        if (pending.length - offset < length) break
        offset += length
      }
      // Complete messages go on at once; a partial one waits for the rest.
      if (offset > 0) upstream.write(pending.subarray(0, offset))
      pending = pending.subarray(offset)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}
