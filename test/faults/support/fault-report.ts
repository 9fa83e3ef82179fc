/**
 * One row of the fault table (docs/faults.md) per fault and database: what was injected, how, during
 * what work, for how long, what the service answered meanwhile, how long recovery took, and the
 * targets lost and duplicated. A fault test measures these, records the row, then asserts on it, so
 * a failing run still leaves the figures that failed. `npm run faults:table` turns the rows of one or
 * more runs into the table (bin/faults-table.ts).
 *
 * Rows go to `FAULTS_REPORT_DIR` (default `test-results/faults`), one JSON file per row, named by the
 * database and the row's id: a second run on the same database replaces its rows.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export type FaultDatabase = 'pglite' | 'postgres'

export interface FaultRow {
  /** Stable id, ordering the table: `1-postgres-restart`, `4-queue-duplicate`... (the item first). */
  id: string
  /** What went wrong, in a few words: "PostgreSQL restarted mid-burst". */
  fault: string
  /** How the test injected it: "the test's own PostgreSQL server stopped (pg_ctl -m fast), started 10 s later". */
  injected: string
  /** The work under way: "2,000 targets publishing on 3 accounts". */
  during: string
  /** How long the fault lasted, in words ("10 s", "every callback", "until space returned"). */
  duration: string
  /** What the service answered meanwhile: "API: 503 service_unavailable, Retry-After 2 (41 of 41)". */
  meanwhile: string
  /** Seconds from the fault's end to the work settled (or the service answering normally); null when nothing had to recover. */
  recoverySec: number | null
  /** Targets (or items of work) the row covers. */
  targets: number
  lost: number
  duplicated: number
  database: FaultDatabase
  /** Anything a reader must know to read the row right. */
  note?: string
}

export const faultReportDir = (): string => resolve(process.env.FAULTS_REPORT_DIR ?? 'test-results/faults')

/** Writes the row (replacing an earlier one for the same id and database) and returns it. */
export function recordFault(row: FaultRow): FaultRow {
  const dir = faultReportDir()
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${row.database}--${row.id.replace(/[^a-z0-9-]/gi, '_')}.json`)
  writeFileSync(file, `${JSON.stringify({ ...row, recordedAt: new Date().toISOString() }, null, 2)}\n`)
  return row
}

/** `pglite` or `postgres`, from the database the global setup provided. */
export const databaseOf = (databaseUrl: string | null | undefined): FaultDatabase =>
  databaseUrl ? 'postgres' : 'pglite'

/** Seconds with one decimal, for `recoverySec`. */
export const secondsSince = (startMs: number, endMs = Date.now()): number => Math.round((endMs - startMs) / 100) / 10
