import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { inject } from 'vitest'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The environment that points a child process at this run's database (PGlite dir, or the real server). */
export function databaseEnv(dataDir: string): Record<string, string> {
  const url = inject('databaseUrl')
  const base: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_NO_WARNINGS: '1',
  }
  if (url) base.DATABASE_URL = url
  return base
}

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  json: any
}

/** A finished child process's exit code and output, its stdout read as JSON where it is JSON. */
export function outputOf(child: ChildProcess): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (d) => (stdout += d))
    child.stderr?.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => {
      let json: unknown = null
      try {
        json = JSON.parse(stdout)
      } catch {
        json = null
      }
      resolve({ code: code ?? -1, stdout, stderr, json })
    })
  })
}

/** `npm run cli -- <args>`, run the way the script runs it (tsx), without npm's banner. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return outputOf(spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env }))
}

export interface StartedServer {
  child: ChildProcess
  baseUrl: string
  output: () => string
  stop(): Promise<number | null>
}

/**
 * `npm start` (bin/start.js: src/entry/node.ts from its bundle) on a free port; resolves once it
 * prints where it listens.
 */
export function startServer(env: Record<string, string>, timeoutMs = 150_000): Promise<StartedServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/start.js'], {
      cwd: ROOT,
      env: { ...env, PORT: '0' },
    })
    let out = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${out}`))
    }, timeoutMs)
    const onData = (d: Buffer) => {
      out += d
      const match = /on (http:\/\/[^\s]+) \(/.exec(out)
      if (match) {
        clearTimeout(timer)
        child.stdout!.off('data', onData)
        child.stdout!.on('data', (more) => (out += more))
        // The demo token is printed right after the address line; give the write a moment to land.
        setTimeout(
          () =>
            resolve({
              child,
              baseUrl: match[1]!,
              output: () => out,
              stop: () =>
                new Promise((done) => {
                  child.once('exit', (code) => done(code))
                  child.kill('SIGTERM')
                }),
            }),
          100,
        )
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (d) => (out += d))
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${out}`))
    })
  })
}
