import { randomBytes } from 'node:crypto'
import type { TestProject } from 'vitest/node'
import { buildClient } from '../../bin/build-client.js'
import ws from 'ws'
import { applyMigrations } from '../../src/db/migrate'
import { openNeon } from '../../src/db/neon'
import type { Db } from '../../src/db/types'
import { createToken } from '../../src/services/tokens'
import { createWorkspace } from '../../src/services/workspace/workspaces'
import { startNeonWsProxy } from '../support/neon-ws-proxy'
import { startLocalQStash } from '../support/qstash-local'
import { startUpstashRestShim } from '../support/upstash-rest-shim'
import { startEmbeddedPostgresServer } from '../support/worker-services'
import { startOpenProtocolFake } from '../fakes/open-protocol'
import { startBunkerFake } from '../fakes/relay'

/** The Worker bindings that point at the services started here (the rest are fixed in the config). */
export interface WorkerServiceBindings {
  DATABASE_URL: string
  NEON_WS_PROXY: string
  UPSTASH_REDIS_REST_URL: string
  UPSTASH_REDIS_REST_TOKEN: string
  QSTASH_URL: string
  QSTASH_TOKEN: string
  QSTASH_CURRENT_SIGNING_KEY: string
  QSTASH_NEXT_SIGNING_KEY: string
}

export interface WorkerSmokeFixture {
  /** 'postgres' with DATABASE_URL (a fresh database on that server), else 'pglite' (embedded, over TCP). */
  database: 'postgres' | 'pglite'
  /** 'redis' with REDIS_URL, else 'ioredis-mock'. */
  redis: 'redis' | 'ioredis-mock'
  workspaceId: string
  planId: string
  token: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Read by vitest.worker.config.ts (cloudflareTest's `inject`) to build the Worker's bindings. */
    workerServiceBindings: WorkerServiceBindings
    /** Read by the tests inside workerd. */
    workerSmoke: WorkerSmokeFixture
    /** A loopback fake of the open-protocol network (its PDS and video service), for the adapter test inside workerd. */
    openProtocolFake: { url: string; videoUrl: string; identifier: string; appPassword: string }
    /** A loopback relay with a NIP-46 remote signer on it, for the relay network's adapter inside workerd. */
    relayFake: { relayUrl: string; bunkerUrl: string; userPubkey: string }
  }
}

const PLAN_ID = 'pro'

/** The workspace and token the smoke test authenticates with. */
async function seed(db: Db): Promise<{ workspaceId: string; token: string }> {
  const workspace = await createWorkspace(db, { name: 'Worker smoke', planId: PLAN_ID })
  const { token } = await createToken(db, workspace.id, 'worker smoke')
  return { workspaceId: workspace.id, token }
}

/**
 * Node side of `vitest run --config vitest.worker.config.ts`: starts the outside services the Worker
 * under test talks to, all on free loopback ports, and hands their addresses to the pool through
 * `project.provide` (the pool resolves its options after global setup, so the ports need not be fixed).
 *
 * - DATABASE_URL set: a fresh database on that PostgreSQL (dropped at teardown), migrated through the
 *   Neon driver and the WebSocket proxy: exactly the path the Worker then takes.
 * - not set: an in-memory PGlite, migrated, served over TCP by pglite-socket (test/support/worker-services.ts),
 *   with the same proxy in front.
 * - REDIS_URL set: the Upstash REST shim in front of that Redis; else in front of ioredis-mock.
 * - Always: the QStash stand-in (test/support/qstash-local.ts), with a fresh token and signing keys.
 */
export default async function setup(project: TestProject) {
  // The page scripts the dashboard serves, bundled from src/dashboard/client/ (bin/build-client.js).
  await buildClient()
  const closers: Array<() => Promise<unknown>> = []
  const teardown = async () => {
    for (const close of closers.reverse())
      await close().catch((error: unknown) => console.warn('[worker global-setup] teardown:', error))
  }
  try {
    const databaseUrl = process.env.DATABASE_URL || undefined
    const redisUrl = process.env.REDIS_URL || undefined

    let workerDatabaseUrl: string
    let proxyAddress: string
    let seeded: { workspaceId: string; token: string }

    if (databaseUrl) {
      const server = new URL(databaseUrl)
      const proxy = await startNeonWsProxy({ pgHost: server.hostname, pgPort: Number(server.port || 5432) })
      closers.push(proxy.close)
      proxyAddress = proxy.address
      const admin = openNeon({ url: databaseUrl, wsProxy: proxy.address, webSocket: ws, max: 1 })
      closers.push(admin.close)
      const name = `sps_worker_${Date.now()}_${process.pid}`
      await admin.db.execute(`CREATE DATABASE "${name}"`)
      // FORCE: the Worker's last pools may still be closing when the run ends.
      closers.push(() => admin.db.execute(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))
      const url = new URL(databaseUrl)
      url.pathname = `/${name}`
      workerDatabaseUrl = url.toString()
      const conn = openNeon({ url: workerDatabaseUrl, wsProxy: proxy.address, webSocket: ws, max: 1 })
      try {
        await applyMigrations(conn.db, 'neon')
        seeded = await seed(conn.db)
      } finally {
        await conn.close()
      }
    } else {
      const embedded = await startEmbeddedPostgresServer()
      closers.push(embedded.close)
      await applyMigrations(embedded.db, 'pglite')
      seeded = await seed(embedded.db)
      const proxy = await startNeonWsProxy({ pgHost: '127.0.0.1', pgPort: embedded.port })
      closers.push(proxy.close)
      proxyAddress = proxy.address
      // The embedded server accepts any user and password; the Neon driver wants both.
      workerDatabaseUrl = `postgres://postgres:pglite@127.0.0.1:${embedded.port}/postgres`
    }

    const upstashToken = `worker-smoke-${randomBytes(12).toString('hex')}`
    const shim = await startUpstashRestShim({ ...(redisUrl ? { redisUrl } : {}), token: upstashToken })
    closers.push(shim.close)

    const qstash = await startLocalQStash()
    closers.push(qstash.close)

    const openProtocol = await startOpenProtocolFake({ now: () => new Date() })
    closers.push(openProtocol.pds.close, openProtocol.video.close)

    const bunker = await startBunkerFake()
    closers.push(bunker.relay.close)

    project.provide('workerServiceBindings', {
      DATABASE_URL: workerDatabaseUrl,
      NEON_WS_PROXY: proxyAddress,
      UPSTASH_REDIS_REST_URL: shim.url,
      UPSTASH_REDIS_REST_TOKEN: upstashToken,
      QSTASH_URL: qstash.url,
      QSTASH_TOKEN: qstash.token,
      QSTASH_CURRENT_SIGNING_KEY: qstash.currentSigningKey,
      QSTASH_NEXT_SIGNING_KEY: qstash.nextSigningKey,
    })
    project.provide('openProtocolFake', {
      url: openProtocol.url,
      videoUrl: openProtocol.videoUrl,
      identifier: openProtocol.handle,
      appPassword: openProtocol.appPassword,
    })
    project.provide('relayFake', { relayUrl: bunker.relay.url, bunkerUrl: bunker.url, userPubkey: bunker.userPubkey })
    project.provide('workerSmoke', {
      database: databaseUrl ? 'postgres' : 'pglite',
      redis: redisUrl ? 'redis' : 'ioredis-mock',
      workspaceId: seeded.workspaceId,
      planId: PLAN_ID,
      token: seeded.token,
    })
  } catch (error) {
    await teardown()
    throw error
  }
  return teardown
}
