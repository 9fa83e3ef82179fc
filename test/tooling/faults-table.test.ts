/**
 * docs/faults.md's table is made from the rows the fault suite records: a row of each database, in
 * the order of the items, with every figure the row measured and nothing a cell could break.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { recordFault, type FaultRow } from '../faults/support/fault-report'
import { readRows, renderTable } from '../faults/table'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  delete process.env.FAULTS_REPORT_DIR
})

const row = (over: Partial<FaultRow>): FaultRow => ({
  id: '1-postgres-restart',
  fault: 'PostgreSQL restarted',
  injected: 'pg_ctl stop | start',
  during: '2,000 targets',
  duration: '10 s',
  meanwhile: '503',
  recoverySec: 3.2,
  targets: 2000,
  lost: 0,
  duplicated: 0,
  database: 'postgres',
  ...over,
})

describe('the fault table', () => {
  it('renders the recorded rows in item order, PGlite before PostgreSQL, a later run replacing its row', () => {
    const dir = mkdtempSync(join(tmpdir(), 'faults-'))
    dirs.push(dir)
    process.env.FAULTS_REPORT_DIR = dir
    recordFault(row({ id: '10-garbage', fault: 'Garbage', recoverySec: null, database: 'pglite' }))
    recordFault(row({ lost: 5 }))
    recordFault(row({ lost: 0, duplicated: 0 }))
    recordFault(row({ id: '2-redis', fault: 'Redis gone', database: 'pglite', targets: 1 }))
    recordFault(row({ id: '2-redis', fault: 'Redis gone', database: 'postgres', targets: 1 }))
    const rows = readRows([dir])
    expect(rows.map((r) => `${r.id}/${r.database}`)).toEqual([
      '1-postgres-restart/postgres',
      '2-redis/pglite',
      '2-redis/postgres',
      '10-garbage/pglite',
    ])
    const table = renderTable(rows)
    const lines = table.split('\n').filter((line) => line.startsWith('| **'))
    expect(lines).toHaveLength(4)
    expect(lines[0]).toContain('pg_ctl stop \\| start')
    expect(lines[0]).toMatch(/\| 3\.2 s \| 2,000 \| 0 \| 0 \|$/)
    expect(lines[3]).toContain('nothing to recover')
  })
})
