import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { afterAll } from 'vitest'
import { type CliResult, outputOf, ROOT } from './processes'
import type { TestApp } from './test-app'

/**
 * The CLI as a client of a started server: `node bin/sps.js` as a child process with a config
 * directory of its own (XDG_CONFIG_HOME in a temp dir) and no database settings at all.
 */
export interface SpsClient {
  /** The test app's base URL over real HTTP on loopback. */
  url: string
  /** The environment the CLI runs with; XDG_CONFIG_HOME is this client's own. */
  env: Record<string, string>
  configHome: string
  run(args: string[], env?: Record<string, string>): Promise<CliResult>
  /** A command that runs until stopped (events tail, listen), its output read as it comes. */
  start(args: string[]): RunningSps
}

export interface RunningSps {
  child: ChildProcess
  stdout(): string
  stderr(): string
  /** SIGINT (Ctrl-C); resolves with the exit code. */
  stop(): Promise<number | null>
}

const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

export async function serveForCli(t: TestApp): Promise<SpsClient> {
  const server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())))
  const configHome = mkdtempSync(join(tmpdir(), 'sps-config-'))
  cleanups.push(() => rmSync(configHome, { recursive: true, force: true }))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const env = { PATH: process.env.PATH ?? '', HOME: configHome, XDG_CONFIG_HOME: configHome, NODE_NO_WARNINGS: '1' }
  const spawnSps = (args: string[], extra: Record<string, string> = {}) =>
    spawn(process.execPath, ['bin/sps.js', ...args], { cwd: ROOT, env: { ...env, ...extra } })
  return {
    url,
    env,
    configHome,
    run: (args, extra) => outputOf(spawnSps(args, extra)),
    start(args) {
      const child = spawnSps(args)
      let stdout = ''
      let stderr = ''
      child.stdout?.on('data', (d) => (stdout += d))
      child.stderr?.on('data', (d) => (stderr += d))
      const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)))
      cleanups.push(() => void child.kill('SIGKILL'))
      return {
        child,
        stdout: () => stdout,
        stderr: () => stderr,
        stop: () => {
          if (child.exitCode === null) child.kill('SIGINT')
          return exited
        },
      }
    },
  }
}
