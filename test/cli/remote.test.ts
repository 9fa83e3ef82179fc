import { statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { type SpsClient, serveForCli } from '../support/cli-client'
import { account } from '../support/fixtures'
import { jpeg, paint } from '../support/media'
import { createTestApp, type TestApp } from '../support/test-app'

// Each command is a real process (node, tsx): seconds each on a loaded machine.
vi.setConfig({ testTimeout: 120_000 })

let t: TestApp
let sps: SpsClient
let accountId: string
beforeAll(async () => {
  t = await createTestApp()
  sps = await serveForCli(t)
  accountId = (await account(t, 'MICROBLOG_NET')).id
})

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const { port } = server.address() as { port: number }
  await new Promise<void>((r) => server.close(() => r()))
  return port
}

describe('sps as a client of a remote server', () => {
  it('logs in only with a token the server accepts, into a 600 file, and never prints the token', async () => {
    const refused = await sps.run([
      'login',
      '--url',
      sps.url,
      '--token',
      'sps_notarealtoken00000000000000000000000000000',
    ])
    expect(refused.code, refused.stderr).toBe(3)
    expect(refused.stderr).toMatch(/^error: .*\(401/)
    expect(() => statSync(join(sps.configHome, 'sps', 'config.json'))).toThrow()

    const done = await sps.run(['login', '--url', sps.url, '--token', t.token])
    expect(done.code, done.stderr).toBe(0)
    expect(done.stdout).toContain('Test workspace')
    expect(done.stdout + done.stderr).not.toContain(t.token)
    expect(done.stdout).toContain(`${t.token.slice(0, 4)}…${t.token.slice(-4)}`)
    const file = join(sps.configHome, 'sps', 'config.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(sps.configHome, 'sps')).mode & 0o777).toBe(0o700)

    const who = await sps.run(['whoami', '--json'])
    expect(who.code, who.stderr).toBe(0)
    expect(who.json).toMatchObject({ workspaceId: t.workspaceId, name: 'Test workspace' })
  })

  it('creates, lists, gets, publishes and deletes a post, --json being the API answer', async () => {
    const created = await sps.run(['posts', 'create', '--text', 'From the CLI', '--accounts', accountId, '--json'])
    expect(created.code, created.stderr).toBe(0)
    expect(created.json).toMatchObject({ status: 'DRAFT', caption: 'From the CLI', accountIds: [accountId] })
    const id = created.json.id as string

    const listed = await sps.run(['posts', 'list', '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.json.map((p: { id: string }) => p.id)).toContain(id)
    const table = await sps.run(['posts', 'list'])
    expect(table.stdout).toMatch(new RegExp(`^ID\\s+STATUS[\\s\\S]*${id}\\s+DRAFT`, 'm'))

    const got = await sps.run(['posts', 'get', id, '--json'])
    expect(got.json).toEqual(await (await t.call('GET', `/v1/posts/${id}`)).json())

    const published = await sps.run(['posts', 'publish', id, '--json'])
    expect(published.code, published.stderr).toBe(0)
    expect(published.json).toMatchObject({ id, status: 'PUBLISHING' })

    const draft = await sps.run(['posts', 'create', '--text', 'Gone soon', '--accounts', accountId, '--json'])
    const deleted = await sps.run(['posts', 'delete', draft.json.id, '--json'])
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.json).toEqual({ id: draft.json.id, deleted: true })
    expect((await t.call('GET', `/v1/posts/${draft.json.id}`)).status).toBe(404)
  })

  it('schedules with --at and refuses two timings as a usage error', async () => {
    const at = new Date(Date.now() + 86_400_000).toISOString()
    const scheduled = await sps.run([
      'posts',
      'create',
      '--text',
      'Later',
      '--accounts',
      accountId,
      '--at',
      at,
      '--json',
    ])
    expect(scheduled.code, scheduled.stderr).toBe(0)
    expect(scheduled.json).toMatchObject({ status: 'SCHEDULED', scheduledAt: at })
    const both = await sps.run(['posts', 'create', '--accounts', accountId, '--at', at, '--now'])
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/choose one of --at, --now/)
  })

  it('uploads a JPEG: presigned, PUT to the store, registered as an asset', async () => {
    const file = join(sps.configHome, 'photo.jpg')
    const bytes = await jpeg(paint(64, 48, (x) => [x * 4, 90, 160]))
    writeFileSync(file, bytes)
    const uploaded = await sps.run(['media', 'upload', file, '--json'])
    expect(uploaded.code, uploaded.stderr).toBe(0)
    expect(uploaded.json).toMatchObject({
      id: expect.stringMatching(/^med_/),
      type: 'IMAGE',
      mimeType: 'image/jpeg',
      width: 64,
      height: 48,
    })
    const stored = await fetch(uploaded.json.url)
    expect(new Uint8Array(await stored.arrayBuffer())).toEqual(bytes)
    const text = await sps.run(['media', 'upload', file])
    expect(text.stdout).toMatch(/^id:\s+med_/m)
    expect(text.stderr).toBe('') // no progress bar when stderr is no terminal
  })

  it('lists accounts, and creates and lists webhooks', async () => {
    const accounts = await sps.run(['accounts', 'list', '--json'])
    expect(accounts.code, accounts.stderr).toBe(0)
    expect(accounts.json).toEqual([expect.objectContaining({ id: accountId, platform: 'MICROBLOG_NET' })])
    expect((await sps.run(['accounts', 'list'])).stdout).toMatch(new RegExp(`^${accountId}\\s+MICROBLOG_NET`, 'm'))

    const link = await sps.run(['accounts', 'connect', '--platform', 'PHOTO_NET', '--connection', 'SANDBOX'])
    expect(link.code, link.stderr).toBe(0)
    expect(link.stdout).toMatch(/\/connect\/\S+$/m)

    const created = await sps.run([
      'webhooks',
      'create',
      '--endpoint',
      'http://127.0.0.1:9/hooks',
      '--events',
      'post.published,post.failed',
      '--json',
    ])
    expect(created.code, created.stderr).toBe(0)
    expect(created.json).toMatchObject({ id: expect.stringMatching(/^whe_/), secret: expect.stringMatching(/^whsec_/) })
    const listed = await sps.run(['webhooks', 'list', '--json'])
    expect(listed.json).toEqual([
      expect.objectContaining({ id: created.json.id, events: ['post.published', 'post.failed'] }),
    ])
    expect(JSON.stringify(listed.json)).not.toContain(created.json.secret)
  })

  it('exits 4 on 404, 1 on 422, 3 on 401 or no login, 5 when the server is unreachable, 2 on bad usage', async () => {
    const [missing, invalid, badToken, down, usage, noLogin] = await Promise.all([
      sps.run(['posts', 'get', 'post_doesnotexist']),
      sps.run(['posts', 'create', '--accounts', accountId, '--at', 'tomorrow']),
      sps.run(['accounts', 'list', '--token', 'sps_wrongwrongwrongwrongwrongwrongwrongwrongwro']),
      closedPort().then((port) => sps.run(['posts', 'list', '--url', `http://127.0.0.1:${port}`, '--token', t.token])),
      sps.run(['posts', 'get']),
      sps.run(['posts', 'list'], { XDG_CONFIG_HOME: join(sps.configHome, 'nobody') }),
    ])
    expect(missing.code, missing.stderr).toBe(4)
    expect(missing.stderr).toMatch(/^error: .*\(404 not_found\)\n {2}requestId: \S+/)
    expect(invalid.code, invalid.stderr).toBe(1)
    expect(invalid.stderr).toMatch(/\(400 invalid_request\)\n {2}scheduledAt: /)
    expect(badToken.code, badToken.stderr).toBe(3)
    expect(down.code, down.stderr).toBe(5)
    expect(down.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/)
    expect(usage.code).toBe(2)
    expect(noLogin.code).toBe(3)
    expect(noLogin.stderr).toMatch(/not logged in/)
    for (const r of [missing, invalid, badToken, down, usage, noLogin]) expect(r.stdout).toBe('')
  })

  it('takes --url and --token over SPS_URL and SPS_TOKEN over the login, and gives the login token to no other server', async () => {
    const env = await sps.run(['whoami', '--json'], { SPS_TOKEN: 'sps_envenvenvenvenvenvenvenvenvenvenvenvenvenv' })
    expect(env.code).toBe(3)
    const flag = await sps.run(['whoami', '--json', '--token', t.token], {
      SPS_TOKEN: 'sps_envenvenvenvenvenvenvenvenvenvenvenvenvenv',
    })
    expect(flag.code, flag.stderr).toBe(0)
    const port = await closedPort()
    const elsewhere = await sps.run(['whoami'], { SPS_URL: `http://127.0.0.1:${port}` })
    expect(elsewhere.code).toBe(3) // the login's token is not sent to another server
  })

  it('prints help for every group and command, with the exit codes', async () => {
    const [all, posts, upload] = await Promise.all([
      sps.run(['--help']),
      sps.run(['posts', '--help']),
      sps.run(['media', 'upload', '--help']),
    ])
    expect(all.code).toBe(0)
    expect(all.stdout).toMatch(/Exit codes:\n {2}0 {3}done/)
    expect(posts.stdout).toContain('posts get <id>')
    expect(upload.stdout).toMatch(/Usage: npm run -s cli -- media upload <file>/)
    expect(upload.stdout).toContain('--json')
  })

  it('logs out: the token leaves the config file', async () => {
    const out = await sps.run(['logout'])
    expect(out.code, out.stderr).toBe(0)
    expect((await sps.run(['whoami'])).code).toBe(3)
  })
})
