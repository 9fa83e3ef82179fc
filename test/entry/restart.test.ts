/**
 * `npm start` stopped and started again a second later on the same DATA_DIR and PORT, as a
 * supervisor or a person at a terminal does: after SIGTERM with a request still in flight, after
 * SIGKILL in a container whose PID 1 never reaps (the killed server stays a zombie), with the port
 * still held a moment, and against a server that is still running.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect, createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { ROOT } from '../support/processes'

vi.setConfig({ testTimeout: 240_000 })

const root = mkdtempSync(join(tmpdir(), 'sps-restart-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

const listenOn = (port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
const closeServer = (server: Server) => new Promise((resolve) => server.close(resolve))

/** A port free now with the next one free too (the local store listens on PORT+1). */
async function freePortPair(): Promise<number> {
  for (;;) {
    const probe = await listenOn(0)
    const port = (probe.address() as { port: number }).port
    await closeServer(probe)
    const next = await listenOn(port + 1).catch(() => null)
    if (next) {
      await closeServer(next)
      return port
    }
  }
}

interface Launched {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>
}

function launch(command: string, args: string[], env: Record<string, string>): Launched {
  const child = spawn(command, args, { cwd: ROOT, env })
  children.push(child)
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const waitFor = async (pattern: RegExp, timeoutMs = 150_000) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const match = pattern.exec(out)
      if (match) return match
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${out}`)
      if (Date.now() > deadline) throw new Error(`no ${pattern} in ${timeoutMs} ms:\n${out}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  return { child, output: () => out, exited, waitFor }
}

const LISTENING = /Social Publishing API on (http:\/\/\S+) \(/

function serverEnv(dataDir: string, port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    NODE_NO_WARNINGS: '1',
  }
}

/** `npm start` (bin/start.js) until it listens; its base URL and the demo token it printed. */
async function start(env: Record<string, string>): Promise<Launched & { baseUrl: string }> {
  const server = launch(process.execPath, ['bin/start.js'], env)
  const [, baseUrl] = await server.waitFor(LISTENING)
  return { ...server, baseUrl: baseUrl! }
}

const DEMO_TOKEN = /sps_[0-9A-Za-z]{43}/
const demoToken = (output: string) => DEMO_TOKEN.exec(output)?.[0] ?? ''
/** The demo token a first start prints a few lines after the listening line (maybe in a later chunk). */
const printedDemoToken = async (server: Launched) => (await server.waitFor(DEMO_TOKEN))[0]
const me = (baseUrl: string, token: string) =>
  fetch(`${baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function stopGracefully(server: Launched): Promise<void> {
  server.child.kill('SIGTERM')
  expect(await server.exited).toBe(0)
}

describe('npm start again right after a stop', () => {
  it('starts one second after SIGTERM while the stopping server still has a request in flight', async () => {
    const dataDir = join(root, 'sigterm')
    const port = await freePortPair()
    const env = serverEnv(dataDir, port)
    const first = await start(env)
    const token = await printedDemoToken(first)
    expect(token, first.output()).not.toBe('')
    // A client half way through sending a post when the stop comes: the server waits for it a while.
    const client = connect(port, '127.0.0.1')
    await new Promise((resolve) => client.once('connect', resolve))
    client.on('error', () => {})
    client.write(
      `POST /v1/posts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 4096\r\n\r\n{"caption":',
    )
    await sleep(300)
    first.child.kill('SIGTERM')
    await sleep(1_000)
    const second = await start(env)
    try {
      // It waited for the first (which gave its request 5 s), unless a loaded machine made it slower than that.
      expect(second.baseUrl).toBe(`http://127.0.0.1:${port}`)
      expect(await first.exited).toBe(0)
      // The same data: the first boot's token still works, and no new demo workspace was made.
      expect(demoToken(second.output())).toBe('')
      expect(await me(second.baseUrl, token)).toBe(200)
    } finally {
      client.destroy()
      await stopGracefully(second)
    }
  })

  it.runIf(process.platform === 'linux')(
    'starts one second after SIGKILL when the killed server stays a zombie (its parent never reaps it)',
    async () => {
      const dataDir = join(root, 'sigkill')
      const port = await freePortPair()
      const env = serverEnv(dataDir, port)
      // The server as the child of a process that never waits on children, like a container's PID 1 that does not reap.
      const parent = launch(
        'sh',
        ['-c', `"${process.execPath}" bin/start.js & echo "server pid $!"; exec sleep 600`],
        env,
      )
      const pid = Number((await parent.waitFor(/server pid (\d+)/))[1])
      const [, baseUrl] = await parent.waitFor(LISTENING)
      const token = await printedDemoToken(parent)
      expect(await me(baseUrl!, token)).toBe(200)
      process.kill(pid, 'SIGKILL')
      await vi.waitFor(() => expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /), { timeout: 5_000 })
      await sleep(1_000)
      const second = await start(env)
      try {
        expect(second.baseUrl).toBe(`http://127.0.0.1:${port}`)
        expect(second.output()).not.toMatch(/waiting up to/)
        expect(await me(second.baseUrl, token)).toBe(200)
      } finally {
        await stopGracefully(second)
        parent.child.kill('SIGKILL')
      }
    },
  )

  it('waits for its port while another process still holds it a moment, then starts', async () => {
    const port = await freePortPair()
    const holder = await listenOn(port)
    const server = launch(process.execPath, ['bin/start.js'], serverEnv(join(root, 'port'), port))
    try {
      // The port is let go once the server has found it taken (however long its start took to get there).
      await server.waitFor(new RegExp(`Port ${port} is in use: trying again for up to \\d+ s`))
      await closeServer(holder)
      const [, baseUrl] = await server.waitFor(LISTENING)
      expect(baseUrl).toBe(`http://127.0.0.1:${port}`)
      expect((await fetch(`${baseUrl}/v1/me`)).status).toBe(401)
    } finally {
      await stopGracefully(server)
    }
  })

  it('still refuses a DATA_DIR a running server holds, after waiting for it, and leaves that server serving', async () => {
    const dataDir = join(root, 'running')
    const first = await start(serverEnv(dataDir, 0))
    try {
      const token = await printedDemoToken(first)
      const second = launch(process.execPath, ['bin/start.js'], serverEnv(dataDir, 0))
      expect(await second.exited).toBe(1)
      expect(second.output()).toMatch(/waiting up to \d+ s for it/)
      expect(second.output()).toMatch(
        new RegExp(`DATA_DIR \\S+ is in use by process ${first.child.pid} \\(is npm start running\\?\\)`),
      )
      expect(await me(first.baseUrl, token)).toBe(200)
    } finally {
      await stopGracefully(first)
    }
  })
})
