import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { applyMigrations } from '../src/db/migrate'
import { openPglite } from '../src/db/pglite'
import { copyTemplate, holdsDatabase, migratedTemplate, templateDir } from '../src/db/pglite-template'
import { percentile, round, type Benchmark } from './types'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const RUNS = 3

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

/** How the server is started: what `npm start` runs (the bundle), or the sources through tsx (the baseline). */
export type StartMode = 'bundle' | 'tsx'
const START_ARGS: Record<StartMode, string[]> = {
  bundle: ['bin/start.js'],
  tsx: ['--import', 'tsx', 'src/entry/node.ts'],
}

/**
 * `npm start` (node bin/start.js; `tsx`: the sources through tsx, as before the bundle) from spawn to
 * its first HTTP answer (GET /v1/me without a token: a 401 comes only once the app is ready), then
 * stopped. Answers the milliseconds and what it printed.
 */
export async function timeToFirstAnswer(
  dataDir: string,
  mode: StartMode = 'bundle',
): Promise<{ ms: number; output: string; phases: Record<string, number> }> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, START_ARGS[mode], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      LOCAL_S3_PORT: '0',
      LOG_LEVEL: 'info',
    },
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${output}`)
      try {
        const res = await fetch(`http://127.0.0.1:${port}/v1/me`, { signal: AbortSignal.timeout(30_000) })
        await res.arrayBuffer()
        if (res.status === 401) {
          const ms = performance.now() - started
          // The boot line is written just before the first answer can go out.
          await new Promise((r) => setTimeout(r, 50))
          const line = output.split('\n').find((l) => l.includes('"event":"boot"'))
          return { ms, output, phases: line ? (JSON.parse(line) as Record<string, number>) : {} }
        }
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 10))
      if (performance.now() - started > 120_000) throw new Error(`no answer in 120 s:\n${output}`)
    }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

/** Milliseconds of `fn` on a fresh directory, and the directory removed. */
async function onFreshDir(fn: (dir: string) => Promise<unknown>): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'sps-bench-pg-'))
  try {
    const t = performance.now()
    await fn(dir)
    return performance.now() - t
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

type Run = { ms: number; phases: Record<string, number> }

const PHASES = ['modulesMs', 'listenMs', 'appModulesMs', 'runtimeMs', 'demoMs', 'appMs'] as const

/**
 * `npm start` to its first answer on an empty DATA_DIR (first start) and on the one it left (a
 * restart), with where the time went (the server's boot line); and beside it, in the same run, a
 * new embedded database made by initdb and every migration against one copied from the template.
 */
export const startBenchmark: Benchmark = {
  name: 'start',
  description: '`npm start` to its first HTTP answer, empty then existing DATA_DIR; initdb against the template',
  async run() {
    const templateWasCached = holdsDatabase(templateDir())
    const template = await migratedTemplate()
    if (!template) throw new Error('the template cannot be kept under node_modules/.cache')
    // The bundle as `npm start` finds it once the sources are unchanged; a build timed on its own below.
    const { bundledEntry } = (await import(pathToFileURL(join(ROOT, 'bin', 'start-bundle.js')).href)) as {
      bundledEntry(cache?: string): Promise<string | null>
    }
    if (!(await bundledEntry())) throw new Error('esbuild cannot run here: npm start would fall back to tsx')
    const runs = {
      bundle: { empty: [] as Run[], existing: [] as Run[] },
      tsx: { empty: [] as Run[], existing: [] as Run[] },
    }
    let warnings = 0
    for (let i = 0; i < RUNS; i++) {
      // Alternated, so both see the same moments of a machine whose load changes.
      for (const mode of ['tsx', 'bundle'] as const) {
        const dir = mkdtempSync(join(tmpdir(), 'sps-bench-start-'))
        try {
          const first = await timeToFirstAnswer(dir, mode)
          runs[mode].empty.push(first)
          const again = await timeToFirstAnswer(dir, mode)
          runs[mode].existing.push(again)
          if (mode === 'bundle') for (const out of [first.output, again.output]) if (/Warning/.test(out)) warnings++
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }
    }
    const builds: number[] = []
    for (let i = 0; i < RUNS; i++) builds.push(await onFreshDir((dir) => bundledEntry(dir)))
    const initdb: number[] = []
    const fromTemplate: number[] = []
    for (let i = 0; i < RUNS; i++) {
      initdb.push(
        await onFreshDir(async (dir) => {
          const conn = await openPglite({ dataDir: dir })
          await applyMigrations(conn.db, 'pglite')
          await conn.close()
        }),
      )
      fromTemplate.push(
        await onFreshDir(async (dir) => {
          copyTemplate(template, dir)
          const conn = await openPglite({ dataDir: dir })
          await applyMigrations(conn.db, 'pglite', { fromTemplate: true })
          await conn.close()
        }),
      )
    }
    const p50 = (d: number[]) =>
      round(
        percentile(
          [...d].sort((a, b) => a - b),
          50,
        ),
        0,
      )
    const row = (what: string, runs: Run[], target: number) => ({
      what,
      runs: runs.length,
      p50_ms: p50(runs.map((r) => r.ms)),
      max_ms: round(Math.max(...runs.map((r) => r.ms)), 0),
      target_ms: target,
      ...Object.fromEntries(PHASES.map((p) => [p, p50(runs.map((r) => r.phases[p] ?? Number.NaN))])),
    })
    const rows: Array<Record<string, string | number>> = [
      row('empty DATA_DIR: spawn to first answer (tsx, baseline)', runs.tsx.empty, 3000),
      row('empty DATA_DIR: spawn to first answer (npm start: bundle)', runs.bundle.empty, 3000),
      row('existing DATA_DIR: spawn to first answer (tsx, baseline)', runs.tsx.existing, 1000),
      row('existing DATA_DIR: spawn to first answer (npm start: bundle)', runs.bundle.existing, 1000),
      {
        what: 'ratio tsx / bundle, empty; existing',
        runs: RUNS,
        ratio: `${round(p50(runs.tsx.empty.map((r) => r.ms)) / p50(runs.bundle.empty.map((r) => r.ms)), 2)}; ${round(p50(runs.tsx.existing.map((r) => r.ms)) / p50(runs.bundle.existing.map((r) => r.ms)), 2)}`,
      },
      { what: 'bundle build (first start after a source change adds it)', runs: RUNS, p50_ms: p50(builds) },
      { what: 'new database: initdb + migrations (baseline)', runs: RUNS, p50_ms: p50(initdb) },
      { what: 'new database: from the template', runs: RUNS, p50_ms: p50(fromTemplate) },
      { what: 'ratio initdb / template', runs: RUNS, ratio: round(p50(initdb) / p50(fromTemplate), 1) },
      {
        what: `warnings printed (template was ${templateWasCached ? 'cached' : 'made'})`,
        runs: 2 * RUNS,
        count: warnings,
      },
    ]
    return rows
  },
}
