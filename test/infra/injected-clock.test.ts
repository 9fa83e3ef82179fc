import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The network adapters and the delivery queues read time only from the app's clock (`Deps.clock`,
 * reaching adapters as `input.now` and the queues as their `clock` option), so a test that sets the
 * clock sets it for them too. This guard fails on any read of the machine's clock there.
 */
const ROOT = join(import.meta.dirname, '../..')
const GUARDED = ['src/networks', 'src/infra/publish-queue', 'src/infra/webhook-queue']

/** `Date.now` (called or passed along), `new Date()` and `new Date` without arguments. */
const MACHINE_CLOCK = /\bDate\.now\b|\bnew\s+Date\s*\(\s*\)|\bnew\s+Date\b(?!\s*\()/

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.ts$/.test(entry.name) ? [path] : []
  })

/** The code without its comments (block comments keep their line breaks, so line numbers hold). */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/.*$/gm, '$1')

function machineClockReads(dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    sourceFiles(join(ROOT, dir)).flatMap((file) =>
      withoutComments(readFileSync(file, 'utf8'))
        .split('\n')
        .flatMap((line, i) => (MACHINE_CLOCK.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    ),
  )
}

describe('time in the adapters and the queues', () => {
  it('comes from the injected clock, never from the machine', () => {
    expect(machineClockReads(GUARDED)).toEqual([])
  })

  it('the guard sees the ways of reading the machine clock', () => {
    for (const line of ['const t = Date.now()', 'now: new Date(),', 'const now = options.now ?? Date.now', 'new Date'])
      expect(MACHINE_CLOCK.test(line), line).toBe(true)
    for (const line of [
      'new Date(iso)',
      'new Date(input.now.getTime() + 1000)',
      'Date.UTC(2026, 0, 1)',
      'Date.parse(s)',
    ])
      expect(MACHINE_CLOCK.test(line), line).toBe(false)
  })
})
