/**
 * Several servers started together on one empty PostgreSQL (server mode only: vitest.config.ts selects
 * `*.postgres.test.ts` with DATABASE_URL): they migrate one at a time rather than each running the same
 * migration, and make one demo workspace between them rather than one each.
 */
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { journal } from '../../src/db/migrate'
import { openNodePostgres, type NodePostgresConnection } from '../../src/db/node-postgres'
import { migrateNodePostgresExclusively } from '../../src/db/node-postgres-migrate'
import { createStrengthEstimator } from '../../src/domain/password-strength'
import { createCredentialCipher, generateCredentialsKey } from '../../src/infra/credential-cipher'
import { bootstrapDemoWorkspace } from '../../src/services/demo'

const SERVERS = 3
const admin = await openNodePostgres({ url: inject('databaseUrl')!, max: 1 })
const name = `sps_start_${Date.now()}_${process.pid}`
await admin.db.execute(sql.raw(`CREATE DATABASE "${name}"`))
const emptyUrl = (() => {
  const u = new URL(inject('databaseUrl')!)
  u.pathname = `/${name}`
  return u.toString()
})()
const pools: NodePostgresConnection[] = []

afterAll(async () => {
  for (const pool of pools) await pool.close()
  await admin.db.execute(sql.raw(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))
  await admin.close()
})

const count = async (db: NodePostgresConnection['db'], query: string) =>
  Number(((await db.execute(sql.raw(query))) as unknown as { rows: Array<{ n: string }> }).rows[0]!.n)

describe('servers started together on one empty PostgreSQL', () => {
  it('migrate one at a time: every one starts, and each migration is applied once', async () => {
    const applied = await Promise.all(Array.from({ length: SERVERS }, () => migrateNodePostgresExclusively(emptyUrl)))
    const all = journal().map((m) => m.tag)
    // One server applied them all; the others found the database up to date.
    expect(applied.filter((names) => names.length > 0)).toEqual([all])
    expect(applied.filter((names) => names.length === 0)).toHaveLength(SERVERS - 1)
    const check = await openNodePostgres({ url: emptyUrl, max: 1 })
    pools.push(check)
    expect(await count(check.db, 'select count(*) as n from drizzle.__drizzle_migrations')).toBe(all.length)
  })

  it('make one demo workspace and one demo user between them', async () => {
    const cipher = await createCredentialCipher(generateCredentialsKey())
    const passwordStrength = createStrengthEstimator()
    for (let i = 0; i < SERVERS; i++) pools.push(await openNodePostgres({ url: emptyUrl, max: 2 }))
    const servers = pools.slice(-SERVERS)
    const demos = await Promise.all(
      servers.map((pool) => bootstrapDemoWorkspace({ db: pool.db, cipher, passwordStrength })),
    )
    expect(demos.filter((demo) => demo !== null)).toHaveLength(1)
    const db = servers[0]!.db
    expect(await count(db, 'select count(*) as n from workspaces')).toBe(1)
    expect(await count(db, 'select count(*) as n from users')).toBe(1)
    expect(await count(db, 'select count(*) as n from api_tokens')).toBe(1)
  })
})
