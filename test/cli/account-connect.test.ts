import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { databaseEnv, runCli } from '../support/processes'

// Real processes (tsx, PGlite): minutes on a loaded machine, not seconds.
vi.setConfig({ testTimeout: 180_000 })

const dataDir = mkdtempSync(join(tmpdir(), 'sps-cli-connect-'))
const env = { ...databaseEnv(dataDir), PUBLIC_URL: 'https://sps.example.test' }
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('npm run cli -- account connect / list / disconnect', () => {
  it('prints a connect link, refuses a network without a client or an unknown group, lists and disconnects accounts', async () => {
    const ws = await runCli(['workspace', 'create', '--name', 'Acme', '--plan', 'pro', '--timezone', 'UTC'], env)
    expect(ws.code, ws.stderr).toBe(0)
    const workspace = ws.json.id as string

    const link = await runCli(
      ['account', 'connect', '--workspace', workspace, '--platform', 'PHOTO_NET', '--connection', 'SANDBOX'],
      env,
    )
    expect(link.code, link.stderr).toBe(0)
    expect(link.json.url).toMatch(/^https:\/\/sps\.example\.test\/connect\/[0-9A-Za-z]{43}$/)
    expect(new Date(link.json.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 60_000)

    const refused = await runCli(['account', 'connect', '--workspace', workspace, '--platform', 'MICROBLOG_NET'], env)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('MICROBLOG_NET_CLIENT_ID and MICROBLOG_NET_CLIENT_SECRET')
    const noGroup = await runCli(
      [
        'account',
        'connect',
        '--workspace',
        workspace,
        '--platform',
        'PHOTO_NET',
        '--connection',
        'SANDBOX',
        '--group',
        'grp_none',
      ],
      env,
    )
    expect(noGroup.code).not.toBe(0)
    expect(noGroup.stderr).toContain('Group not found.')

    const added = await runCli(
      ['account', 'add', '--workspace', workspace, '--platform', 'MESSAGING_NET', '--username', 'news', '--sandbox'],
      env,
    )
    expect(added.code, added.stderr).toBe(0)
    const listed = await runCli(['account', 'list', '--workspace', workspace], env)
    expect(listed.json).toEqual([
      expect.objectContaining({ id: added.json.id, status: 'ACTIVE', lastPublishedAt: null }),
    ])

    const gone = await runCli(['account', 'disconnect', '--id', added.json.id], env)
    expect(gone.code, gone.stderr).toBe(0)
    expect(gone.json).toMatchObject({ id: added.json.id, status: 'DISCONNECTED', failedTargets: 0 })
    const unknown = await runCli(['account', 'disconnect', '--id', 'acc_nope'], env)
    expect(unknown.code).not.toBe(0)
  })
})
