import { Pool, type PoolClient, neonConfig } from '@neondatabase/serverless'
import { drizzle } from 'drizzle-orm/neon-serverless'
import * as schema from './schema'
import type { Db } from './types'

export interface NeonConnection {
  db: Db
  close(): Promise<void>
}

/**
 * PostgreSQL through the Neon serverless driver (a Pool over WebSocket; transactions work).
 * `wsProxy` (`host:port`) is for local development: a WebSocket-to-TCP proxy in front of a plain PostgreSQL.
 * `webSocket` is the constructor to use on Node (the `ws` package); workerd has a global WebSocket.
 */
export function openNeon(options: {
  url: string
  wsProxy?: string | undefined
  webSocket?: unknown
  max?: number
}): NeonConnection {
  if (options.webSocket) neonConfig.webSocketConstructor = options.webSocket as typeof WebSocket
  const proxy = options.wsProxy
  if (proxy) {
    // Same settings for every pool of the process: these are the driver's global knobs.
    neonConfig.wsProxy = (host, port) => `${proxy}/v1?address=${host}:${port}`
    neonConfig.useSecureWebSocket = false
    // SCRAM authentication (plain PostgreSQL) breaks with the driver's pipelined start-up.
    neonConfig.pipelineConnect = false
    neonConfig.pipelineTLS = false
  }
  const pool = new Pool({ connectionString: options.url, max: options.max ?? 10 })
  // An idle client that drops (server restart, proxy gone) must not crash the process.
  pool.on('error', () => {})
  // Nor one in use: the pool listens to a client only while it is idle, so a connection dropped
  // under a transaction would emit an unheard 'error' (an uncaught exception). Its queries fail
  // all the same, and the pool discards it when it is released.
  pool.on('connect', (client: PoolClient) => client.on('error', () => {}))
  const db = drizzle({ client: pool, schema }) as unknown as Db
  return { db, close: () => pool.end() }
}
