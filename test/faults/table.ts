/**
 * `npm run faults:table [--print] [dir ...]`: the fault table of docs/faults.md, made from the rows the
 * fault suite recorded (test/faults/support/fault-report.ts; default dir `test-results/faults`).
 * Rewrites the part of docs/faults.md between its two markers and leaves the rest as written;
 * `--print` writes the table to standard output instead (CI's log).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { FaultRow } from './support/fault-report'

const START = '<!-- faults:table:start -->'
const END = '<!-- faults:table:end -->'
const DOC = resolve('docs/faults.md')

type Recorded = FaultRow & { recordedAt: string }

export function readRows(dirs: string[]): Recorded[] {
  const rows: Recorded[] = []
  for (const dir of dirs) {
    let files: string[] = []
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.json'))
    } catch {
      continue
    }
    for (const file of files) rows.push(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Recorded)
  }
  const order = (r: Recorded) => `${r.id.padStart(40, ' ')}|${r.database === 'pglite' ? 0 : 1}`
  return rows.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }) || order(a).localeCompare(order(b)))
}

const cell = (text: string | number | null | undefined) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n+/g, ' ')

const DB = { pglite: 'PGlite', postgres: 'PostgreSQL' } as const

export function renderTable(rows: Recorded[]): string {
  const head = [
    '| fault | database | injected how | during what work | for how long | the service meanwhile | recovery | targets | lost | duplicated |',
    '|---|---|---|---|---|---|---|---:|---:|---:|',
  ]
  const body = rows.map((r) =>
    [
      `**${cell(r.fault)}**${r.note ? ` (${cell(r.note)})` : ''}`,
      DB[r.database],
      cell(r.injected),
      cell(r.during),
      cell(r.duration),
      cell(r.meanwhile),
      r.recoverySec === null ? 'nothing to recover' : `${r.recoverySec} s`,
      r.targets.toLocaleString('en'),
      r.lost,
      r.duplicated,
    ].join(' | '),
  )
  const dates = rows.map((r) => r.recordedAt).sort()
  const span = dates.length
    ? `Recorded ${dates[0]!.slice(0, 16)}Z to ${dates.at(-1)!.slice(0, 16)}Z.`
    : 'No rows recorded.'
  return [span, '', ...head, ...body.map((line) => `| ${line} |`)].join('\n')
}

function main() {
  const args = process.argv.slice(2)
  const print = args[0] === '--print'
  const dirs = print ? args.slice(1) : args
  const rows = readRows(dirs.length ? dirs : ['test-results/faults'])
  if (rows.length === 0) throw new Error('no fault rows found: run `npm run test:faults` first')
  if (print) {
    console.log(renderTable(rows))
    return
  }
  const doc = readFileSync(DOC, 'utf8')
  const at = doc.indexOf(START)
  const end = doc.indexOf(END)
  if (at < 0 || end < at) throw new Error(`docs/faults.md lacks the ${START} ... ${END} markers`)
  writeFileSync(DOC, `${doc.slice(0, at + START.length)}\n${renderTable(rows)}\n${doc.slice(end)}`)
  console.log(`docs/faults.md: ${rows.length} rows`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main()
