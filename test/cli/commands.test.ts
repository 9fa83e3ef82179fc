import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { startMessagingFake } from '../fakes/messaging'
import { sha256Hex } from '../../src/lib/crypto'
import { databaseEnv, ROOT, runCli, startServer, type CliResult } from '../support/processes'

// These tests start real processes (tsx, PGlite, the local store): minutes on a loaded machine, not seconds.
vi.setConfig({ testTimeout: 180_000 })

const dataDir = mkdtempSync(join(tmpdir(), 'sps-cli-'))
const env = databaseEnv(dataDir)
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** Exactly what the README documents: `npm run -s cli -- <args>`, npm and all. */
function runDocumented(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'cli', '--', ...args], { cwd: ROOT, env })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, json: null }))
  })
}

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

    // The list names each token and its dates, never the token or its hash.
    const tokens = await runCli(['token', 'list', '--workspace', ws.json.id], env)
    expect(tokens.code, tokens.stderr).toBe(0)
    expect(tokens.json).toEqual([
      {
        id: token.json.id,
        name: 'ci',
        createdAt: token.json.createdAt,
        lastUsedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        role: 'owner',
        groupIds: null,
      },
    ])
    expect(tokens.stdout).not.toContain(token.json.token)
    expect(tokens.stdout).not.toContain(await sha256Hex(token.json.token))
    const workspaces = await runCli(['workspace', 'list'], env)
    expect(workspaces.code, workspaces.stderr).toBe(0)
    expect(workspaces.json).toContainEqual({ ...ws.json })
    const migrate = await runCli(['db', 'migrate'], env)
    expect(migrate.json).toEqual({ migrated: true, applied: [], status: 'up to date' })
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

  it('fails with a clear message on stderr: exit 2 for bad usage, 1 for a refusal', async () => {
    const cases: Array<[string[], RegExp, number]> = [
      [['workspace', 'delete'], /unknown command "workspace delete".*Run "npm run -s cli -- --help"/, 2],
      [['workspace', 'create'], /--name is required\. Run "npm run -s cli -- workspace create --help"/, 2],
      [
        ['workspace', 'create', '--name', 'x', '--plan', 'platinum'],
        /Unknown plan "platinum"; the plans are agency, free, pro/,
        1,
      ],
      [['token', 'create', '--workspace', 'ws_missing'], /no workspace with id ws_missing/, 1],
      [['token', 'revoke', '--id', 'tok_missing'], /no live token/, 1],
      [
        ['workspace', 'create', '--name', 'x', '--colour', 'red'],
        /unknown option --colour.*workspace create --help/,
        2,
      ],
      [['token', 'list'], /--workspace is required/, 2],
    ]
    const results: CliResult[] = []
    for (const [args] of cases) results.push(await runCli(args, env))
    results.forEach((r, i) => {
      expect(r.code, cases[i]![0].join(' ')).toBe(cases[i]![2])
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(cases[i]![1])
    })
  })
})

describe('npm run -s cli, as the README documents it', () => {
  it('prints only JSON on stdout, says which migrations it applied, and help on stdout with exit 0', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'sps-cli-npm-'))
    try {
      const freshEnv = databaseEnv(fresh)
      const migrate = await runDocumented(['db', 'migrate'], freshEnv)
      expect(migrate.code, migrate.stderr).toBe(0)
      const journal = JSON.parse(readFileSync(join(ROOT, 'migrations/meta/_journal.json'), 'utf8'))
      const names = journal.entries.map((e: { tag: string }) => e.tag)
      // A fresh embedded database gets every migration; a shared PostgreSQL one is already up to date.
      expect(JSON.parse(migrate.stdout)).toEqual(
        process.env.DATABASE_URL
          ? { migrated: true, applied: [], status: 'up to date' }
          : { migrated: true, applied: names, status: `applied ${names.length}` },
      )
      const ws = await runDocumented(['workspace', 'create', '--name', 'Through npm'], freshEnv)
      expect(ws.code, ws.stderr).toBe(0)
      expect(JSON.parse(ws.stdout)).toMatchObject({ id: expect.stringMatching(/^ws_/), name: 'Through npm' })
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }

    for (const args of [['--help'], ['-h'], ['help'], ['token', 'list', '--help'], ['workspace', 'create', '-h']]) {
      const help = await runDocumented(args, env)
      expect(help.code, `${args.join(' ')}: ${help.stderr}`).toBe(0)
      expect(help.stdout).toMatch(/^Usage: npm run -s cli -- /)
      expect(help.stdout).toMatch(/Example:\n {2}npm run -s cli -- /)
    }
    const unknown = await runDocumented(['workspace', 'create', '--name', 'x', '--colour', 'red'], env)
    expect(unknown.code).not.toBe(0)
    expect(unknown.stdout).toBe('')
    expect(unknown.stderr).toMatch(/unknown option --colour.*--help/)
  })
})
