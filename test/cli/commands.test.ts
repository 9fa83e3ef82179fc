import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { startMessagingFake } from '../fakes/messaging'
import { databaseEnv, runCli, startServer, type CliResult } from '../support/processes'

// These tests start real processes (tsx, PGlite, the local store): minutes on a loaded machine, not seconds.
vi.setConfig({ testTimeout: 180_000 })

const dataDir = mkdtempSync(join(tmpdir(), 'sps-cli-'))
const env = databaseEnv(dataDir)
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('npm run cli', () => {
  it('creates a workspace, a token that works on the API, a sandbox account, and revokes the token', async () => {
    const ws = await runCli(
      ['workspace', 'create', '--name', 'Acme', '--plan', 'free', '--timezone', 'Europe/Berlin'],
      env,
    )
    expect(ws.code, ws.stderr).toBe(0)
    expect(ws.json).toMatchObject({
      id: expect.stringMatching(/^ws_/),
      name: 'Acme',
      plan: 'free',
      timezone: 'Europe/Berlin',
    })

    const token = await runCli(['token', 'create', '--workspace', ws.json.id, '--name', 'ci'], env)
    expect(token.code, token.stderr).toBe(0)
    expect(token.json).toMatchObject({
      id: expect.stringMatching(/^tok_/),
      name: 'ci',
      token: expect.stringMatching(/^sps_[0-9A-Za-z]{43}$/),
      workspaceId: ws.json.id,
    })

    const account = await runCli(
      [
        'account',
        'add',
        '--workspace',
        ws.json.id,
        '--platform',
        'PINBOARD_NET',
        '--username',
        'boards',
        '--sandbox',
        '--fail-mode',
        'once',
      ],
      env,
    )
    expect(account.code, account.stderr).toBe(0)
    expect(account.json).toMatchObject({
      id: expect.stringMatching(/^acc_/),
      platform: 'PINBOARD_NET',
      connection: 'SANDBOX',
      status: 'ACTIVE',
    })

    const me = async () => {
      const server = await startServer(env)
      try {
        const res = await fetch(`${server.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token.json.token}` } })
        return { status: res.status, body: (await res.json()) as any }
      } finally {
        await server.stop()
      }
    }
    const live = await me()
    expect(live.status).toBe(200)
    expect(live.body).toMatchObject({ workspaceId: ws.json.id, plan: { id: 'free' }, usage: { socialAccounts: 1 } })

    const revoked = await runCli(['token', 'revoke', '--id', token.json.id], env)
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(revoked.json).toEqual({ id: token.json.id, revoked: true })
    expect((await me()).status).toBe(401)
  })

  it('connects a real account only after the network confirms the credentials, under the name the network reports', async () => {
    const network = await startMessagingFake()
    const withNetwork = { ...env, MESSAGING_NET_API_URL: network.url }
    const ws = await runCli(['workspace', 'create', '--name', 'Connected'], withNetwork)
    expect(ws.code, ws.stderr).toBe(0)
    const add = (credentials: unknown, extra: string[] = []) =>
      runCli(
        [
          'account',
          'add',
          '--workspace',
          ws.json.id,
          '--platform',
          'MESSAGING_NET',
          '--connection',
          'BOT_TOKEN',
          '--credentials',
          JSON.stringify(credentials),
          ...extra,
        ],
        withNetwork,
      )

    const missing = await add({ botToken: '123456:ABC-def_ghi' })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/chatId: is required/)
    const wrongConnection = await runCli(
      [
        'account',
        'add',
        '--workspace',
        ws.json.id,
        '--platform',
        'MESSAGING_NET',
        '--connection',
        'WEBHOOK',
        '--credentials',
        '{}',
      ],
      withNetwork,
    )
    expect(wrongConnection.stderr).toMatch(/MESSAGING_NET connects through BOT_TOKEN, not WEBHOOK/)
    const refused = await add({ botToken: '999999:WRONG-token', chatId: '@acmenews' })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/MESSAGING_NET did not confirm the credentials/)
    expect(refused.stderr).not.toContain('WRONG-token')

    const added = await add({ botToken: '123456:ABC-def_ghi', chatId: '@acmenews' }, ['--username', 'ignored'])
    expect(added.code, added.stderr).toBe(0)
    expect(added.json).toMatchObject({
      platform: 'MESSAGING_NET',
      connection: 'BOT_TOKEN',
      username: 'acmenews',
      status: 'ACTIVE',
    })
    expect(added.stdout).not.toContain('ABC-def_ghi')

    // Only the confirmed account was stored, and no endpoint shows its token.
    const token = await runCli(['token', 'create', '--workspace', ws.json.id], withNetwork)
    const server = await startServer(withNetwork)
    try {
      const res = await fetch(`${server.baseUrl}/v1/accounts`, {
        headers: { authorization: `Bearer ${token.json.token}` },
      })
      const text = await res.text()
      expect(JSON.parse(text)).toEqual([
        expect.objectContaining({ id: added.json.id, username: 'acmenews', connection: 'BOT_TOKEN' }),
      ])
      expect(text).not.toContain('ABC-def_ghi')
    } finally {
      await server.stop()
    }
  })

  it('fails with a clear message on stderr and a non-zero exit code', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['workspace', 'delete'], /unknown command/],
      [['workspace', 'create'], /--name is required/],
      [['workspace', 'create', '--name', 'x', '--plan', 'platinum'], /Unknown plan/],
      [['token', 'create', '--workspace', 'ws_missing'], /no workspace with id ws_missing/],
      [['token', 'revoke', '--id', 'tok_missing'], /no live token/],
      [['workspace', 'create', '--name', 'x', '--colour', 'red'], /unknown option --colour/],
    ]
    const results: CliResult[] = []
    for (const [args] of cases) results.push(await runCli(args, env))
    results.forEach((r, i) => {
      expect(r.code, cases[i]![0].join(' ')).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(cases[i]![1])
    })
  })
})

describe.runIf(!process.env.DATABASE_URL)('the embedded database', () => {
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
