/**
 * The CLI beside `npm start` on the embedded database (PGlite under DATA_DIR), which one process at a
 * time may open. Only without DATABASE_URL: vitest.config.ts leaves `*.embedded.test.ts` out of a run on
 * a real PostgreSQL, where any number of processes share the server.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { databaseEnv, runCli, startServer } from '../support/processes'

// A real npm start and two CLI processes (tsx, PGlite): minutes on a loaded machine, not seconds.
vi.setConfig({ testTimeout: 180_000 })

const dataDir = mkdtempSync(join(tmpdir(), 'sps-cli-embedded-'))
const env = databaseEnv(dataDir)
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('the embedded database', () => {
  it('is refused to a second process while npm start holds it, instead of being corrupted', async () => {
    const server = await startServer(env)
    try {
      const clash = await runCli(['workspace', 'create', '--name', 'Clash'], env)
      expect(clash.code).toBe(1)
      expect(clash.stderr).toMatch(/is in use by process \d+ \(is npm start running\?\)/)
    } finally {
      await server.stop()
    }
    const after = await runCli(['workspace', 'create', '--name', 'After'], env)
    expect(after.code, after.stderr).toBe(0)
  })
})
