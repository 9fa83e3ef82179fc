import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { processAt } from './process-identity'

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number, hint: string) {
    super(`DATA_DIR ${dir} is in use by process ${pid} (is npm start running?). ${hint}`)
    this.name = 'DataDirInUseError'
  }
}

const EMBEDDED_DATABASE_HINT =
  'The embedded database serves one process at a time: stop that process first, or run both against DATABASE_URL.'

export interface DataDirLock {
  /** Says in the lock file that this process is stopping: a start meanwhile waits for it rather than refusing. */
  stopping(): void
  release(): void
}

export interface LockOptions {
  /** What to do in the message when another process holds the folder. */
  hint?: string
  /** How long to wait for a holder that says it is stopping (30 s). */
  stoppingWaitMs?: number
  /** How long to wait for a holder that does not (yet) say so, as a stop may just have been asked for (5 s). */
  runningWaitMs?: number
  /** Told once when the lock is waited for (by default, a line on stderr). */
  onWait?: (message: string) => void
}

const POLL_MS = 100

/** What a lock file says of its holder. */
interface LockRecord {
  pid: number
  /** The holder's start time, to tell it from a later process given the same pid; null where unknown. */
  startTime: string | null
  stopping: boolean
}

/** A lock file's text: `{"pid","startTime","state"}`, or an older version's bare pid; null if it is neither. */
function parseLockRecord(text: string): LockRecord | null {
  const trimmed = text.trim()
  if (/^[1-9][0-9]*$/.test(trimmed)) return { pid: Number(trimmed), startTime: null, stopping: false }
  try {
    const parsed = JSON.parse(trimmed) as { pid?: unknown; startTime?: unknown; state?: unknown }
    if (!Number.isInteger(parsed.pid) || (parsed.pid as number) <= 0) return null
    return {
      pid: parsed.pid as number,
      startTime: typeof parsed.startTime === 'string' ? parsed.startTime : null,
      stopping: parsed.state === 'stopping',
    }
  } catch {
    return null
  }
}

/** This process as a lock file names it. */
function ownRecord(stopping: boolean): LockRecord {
  return { pid: process.pid, startTime: processAt(process.pid).startTime, stopping }
}

const serialize = (record: LockRecord) =>
  `${JSON.stringify({ pid: record.pid, startTime: record.startTime, state: record.stopping ? 'stopping' : 'running' })}\n`

/** Creates `file` with `text`, complete or not at all (a reader never sees it half written); false if it exists. */
function createWhole(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, text)
  try {
    linkSync(tmp, file)
    return true
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err
    // A file system without hard links: an exclusive create, then the content.
    try {
      writeFileSync(file, text, { flag: 'wx' })
      return true
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw again
    }
  } finally {
    rmSync(tmp, { force: true })
  }
}

/** The lock file's record; null when it is gone, 'unreadable' when it names no process. */
function readRecord(file: string): LockRecord | 'unreadable' | null {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
  return parseLockRecord(text) ?? 'unreadable'
}

/**
 * Whether the holder a lock file names is still the process that wrote it: not gone, not a zombie
 * (a killed process its parent never reaped still answers `kill(pid, 0)`), and not another program
 * that was given its pid since (its start time differs; a lock of an older version, which records
 * no start time, must name a Node process).
 */
function holderLives(record: LockRecord): boolean {
  if (record.pid === process.pid) return false
  const holder = processAt(record.pid)
  if (!holder.exists || holder.zombie) return false
  if (record.startTime !== null && holder.startTime !== null) return holder.startTime === record.startTime
  return holder.runsNode !== false
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs `then` if the lock file still names this process (a successor's lock is never touched). */
function ifOurs(file: string, then: () => void): void {
  const record = readRecord(file)
  const mine = ownRecord(false)
  if (record === null || record === 'unreadable' || record.pid !== mine.pid || record.startTime !== mine.startTime)
    return
  then()
}

/**
 * Locks `dir` for this process with `dir/owner.pid`, which names it (pid and start time) and says
 * whether it is stopping. PGlite is one process's database: a second process opening the same
 * folder would see a stale copy and could corrupt it. A lock whose holder is gone, a zombie or
 * another program is taken over. A live holder that is stopping is waited for (up to
 * `stoppingWaitMs`), one that is not for `runningWaitMs` (a stop may have been asked for a moment
 * ago); then the start is refused with DataDirInUseError.
 */
export async function lockDataDir(dir: string, options: LockOptions = {}): Promise<DataDirLock> {
  const file = join(dir, 'owner.pid')
  const stoppingWaitMs = options.stoppingWaitMs ?? 30_000
  const runningWaitMs = options.runningWaitMs ?? 5_000
  const onWait = options.onWait ?? ((message: string) => process.stderr.write(`${message}\n`))
  const startedAt = Date.now()
  let told = false
  for (;;) {
    if (createWhole(file, serialize(ownRecord(false)))) break
    const held = readRecord(file)
    if (held === null) continue
    if (held === 'unreadable' || !holderLives(held)) {
      rmSync(file, { force: true })
      continue
    }
    const limit = held.stopping ? stoppingWaitMs : runningWaitMs
    if (Date.now() - startedAt >= limit)
      throw new DataDirInUseError(dir, held.pid, options.hint ?? EMBEDDED_DATABASE_HINT)
    if (!told) {
      told = true
      const state = held.stopping ? 'which is stopping' : 'which may be stopping'
      onWait(`DATA_DIR ${dir} is held by process ${held.pid}, ${state}: waiting up to ${limit / 1000} s for it.`)
    }
    await sleep(POLL_MS)
  }
  return {
    // Best effort: a stop goes on even where the folder cannot be written any more.
    stopping: () => {
      try {
        ifOurs(file, () => {
          const tmp = `${file}.${process.pid}.tmp`
          writeFileSync(tmp, serialize(ownRecord(true)))
          renameSync(tmp, file)
        })
      } catch {}
    },
    release: () => ifOurs(file, () => rmSync(file, { force: true })),
  }
}
