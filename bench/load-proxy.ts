import { startNeonWsProxy } from '../test/support/neon-ws-proxy'

/**
 * The load benchmark's stand-in for Neon's edge, in its own process so the proxy's work competes
 * neither with the load generator's clock nor with the server's event loop. Argument: the
 * PostgreSQL URL whose host and port every WebSocket is relayed to. Prints `proxy <host:port>`.
 */
const pg = new URL(process.argv[2] ?? 'postgres://127.0.0.1:5432')
const proxy = await startNeonWsProxy({ pgHost: pg.hostname, pgPort: Number(pg.port || 5432) })
console.log(`proxy ${proxy.address}`)
process.once('SIGTERM', () => void proxy.close().finally(() => process.exit(0)))
